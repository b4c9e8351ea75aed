import type { Metadata } from "next";
import { safeCallbackUrl } from "./safe-callback-url";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Brand } from "@/components/dashboard/brand";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const { callbackUrl, error } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <Brand />
        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-xl font-semibold text-slate-900">Sign in to the dashboard</h1>
          <p className="mt-1 mb-6 text-sm text-slate-600">Manage your API keys, sources and courier profiles.</p>
          {/* next-auth sends its own failures (an expired form, a refused callback) here with ?error=. */}
          <SignInForm
            callbackUrl={safeCallbackUrl(callbackUrl)}
            initialError={error ? "Signing in failed. Try again." : null}
          />
        </div>
      </div>
    </main>
  );
}
