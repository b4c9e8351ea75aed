import { BookOpen, ClipboardCheck, KeyRound, LogIn, Printer, Truck } from "lucide-react";
import Link from "next/link";
import { Brand } from "@/components/dashboard/brand";
import { Button } from "@/components/ui/button";

const features = [
  {
    icon: KeyRound,
    title: "Keys for each shop",
    text: "API keys with permissions and rate limits, shown once, revoked in a click.",
  },
  {
    icon: ClipboardCheck,
    title: "Validate before sending",
    text: "Every courier rule checked field by field, with messages your shop can show.",
  },
  {
    icon: Truck,
    title: "Orders, tracked",
    text: "Shipping numbers, tracking that moves, refused orders kept to fix and send again.",
  },
  {
    icon: Printer,
    title: "Labels warehouses print",
    text: "PDF on A6 or four to an A4 sheet, and ZPL for thermal printers.",
  },
];

export default function Home() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-6 py-4">
          <Brand />
          <nav aria-label="Site" className="flex items-center gap-2">
            <Button asChild variant="ghost">
              <Link href="/docs">API reference</Link>
            </Button>
            <Button asChild>
              <Link href="/sign-in">
                <LogIn aria-hidden className="size-4" />
                Sign in
              </Link>
            </Button>
          </nav>
        </div>
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 px-6 py-12 sm:py-20">
        <h1 className="max-w-2xl text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
          Send shipping orders from your shop to the courier, through one API.
        </h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-600">
          Validate and create orders, get shipping numbers and labels, and follow every shipment. The built-in sandbox
          courier makes the whole flow work before you sign a courier contract.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Button asChild>
            <Link href="/sign-in">
              <LogIn aria-hidden className="size-4" />
              Sign in to the dashboard
            </Link>
          </Button>
          <Button asChild variant="secondary">
            <Link href="/docs">
              <BookOpen aria-hidden className="size-4" />
              Read the API reference
            </Link>
          </Button>
        </div>
        <ul className="mt-14 grid gap-4 sm:grid-cols-2">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <Icon aria-hidden className="size-5 text-blue-600" />
              <h2 className="mt-3 text-base font-semibold text-slate-900">{title}</h2>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <p className="mx-auto max-w-5xl px-6 py-4 text-sm text-slate-600">
          Shipping-order platform · REST API v2 ·{" "}
          <a className="text-blue-700 underline" href="/api/v2/openapi.json">
            OpenAPI document
          </a>
        </p>
      </footer>
    </div>
  );
}
