import Link from "next/link";
import { withAccount } from "@/lib/account";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";

/** The orders and the refused attempts, side by side: links (each view has its own URL), marked as the current page. */
export function OrdersViews({ accountId, current }: { accountId: string; current: "orders" | "refused" }) {
  const views = [
    { id: "orders", label: "Orders", href: "/dashboard/orders" },
    { id: "refused", label: "Refused", href: "/dashboard/orders/refused" },
  ] as const;
  return (
    <nav aria-label="Order views" className="mb-6 inline-flex rounded-lg bg-slate-100 p-1">
      {views.map((view) => (
        <Link
          key={view.id}
          href={withAccount(view.href, accountId)}
          aria-current={view.id === current ? "page" : undefined}
          className={cn(
            "rounded-md px-3 py-1.5 text-sm font-medium",
            view.id === current ? "bg-white text-slate-900 shadow-sm" : "text-slate-700 hover:text-slate-900",
            focusRing,
          )}
        >
          {view.label}
        </Link>
      ))}
    </nav>
  );
}
