"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { SIGN_IN_RATE_LIMITED } from "@/lib/sign-in-errors";

// The `error` codes next-auth hands back: its own for wrong credentials, and the rate limit's from authorize().
function messageOf(error: string | null | undefined): string {
  if (error === "CredentialsSignin") return "The email or password is wrong.";
  if (error === SIGN_IN_RATE_LIMITED) return "Too many sign-in attempts. Wait a minute, then try again.";
  return "Signing in failed. Try again in a moment.";
}

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const router = useRouter();
  const password = useRef<HTMLInputElement>(null);
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      redirect: false,
    });
    if (!result?.ok || result.error) {
      setPending(false);
      setError(messageOf(result?.error));
      password.current?.select();
      return;
    }
    router.replace(callbackUrl);
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TextField id="email" name="email" type="email" label="Email" autoComplete="username" required autoFocus />
      <TextField
        ref={password}
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        required
      />
      <Button type="submit" className="w-full justify-center" disabled={pending}>
        {pending ? <Spinner /> : null}
        Sign in
      </Button>
    </form>
  );
}
