import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Shipping orders", template: "%s · Shipping orders" },
  description: "Shipping-order platform for partners: API keys, sources, courier profiles, orders and labels.",
};

// Every page is rendered per request: its scripts carry that request's CSP nonce (proxy.ts), which a page
// rendered once at build time could not have, and the policy refuses scripts without it. A page that exports
// `dynamic = "force-static"` (/docs: the same for everyone) is rendered once by the build instead (`connection()` then
// waits for nothing) and its inline scripts are allowed by hash (server/http/prerendered-pages.ts).
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
