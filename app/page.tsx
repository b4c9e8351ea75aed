import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-10">
      <h1 className="text-2xl font-semibold">Shipping-order platform</h1>
      <p className="mt-2 text-slate-600">Partner dashboard and REST API v2.</p>
      <ul className="mt-6 list-disc pl-6">
        <li>
          <Link className="text-blue-700 underline" href="/sign-in">
            Sign in to the dashboard
          </Link>
        </li>
        <li>
          <Link className="text-blue-700 underline" href="/docs">
            API reference
          </Link>
        </li>
      </ul>
    </main>
  );
}
