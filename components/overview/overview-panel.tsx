"use client";

import { CircleCheck, CircleDashed, KeyRound, PackageX, Truck, Waypoints, type LucideIcon } from "lucide-react";
import Link from "next/link";
import type { AccountChoice } from "@/lib/account";
import { withAccount } from "@/lib/account";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";
import { api } from "@/trpc/react";

function SummaryCard({
  href,
  icon: Icon,
  title,
  value,
  detail,
}: {
  href: string;
  icon: LucideIcon;
  title: string;
  value: number;
  detail: string;
}) {
  return (
    <Link
      href={href}
      className={cn(
        "rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition-colors hover:border-blue-300",
        focusRing,
      )}
    >
      <span className="flex items-center gap-2 text-sm font-medium text-slate-600">
        <Icon aria-hidden className="size-4 text-slate-500" />
        {title}
      </span>
      <span className="mt-2 block text-3xl font-semibold text-slate-900">{value}</span>
      <span className="mt-1 block text-sm text-slate-500">{detail}</span>
    </Link>
  );
}

function Step({ done, children }: { done: boolean; children: React.ReactNode }) {
  const Icon = done ? CircleCheck : CircleDashed;
  return (
    <li className="flex gap-3">
      <Icon aria-hidden className={cn("mt-0.5 size-5 shrink-0", done ? "text-green-600" : "text-slate-500")} />
      <span className={cn("text-sm", done ? "text-slate-600" : "text-slate-800")}>
        <span className="sr-only">{done ? "Done: " : "To do: "}</span>
        {children}
      </span>
    </li>
  );
}

export function OverviewPanel({ account }: { account: AccountChoice }) {
  const accountId = account.id;
  const [keys] = api.apiKeys.list.useSuspenseQuery({ accountId, page: 1 });
  const [sources] = api.sources.list.useSuspenseQuery({ accountId });
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId });
  const [overview] = api.overview.get.useSuspenseQuery({ accountId });
  const defaults = profiles.items.filter((p) => p.isDefault).length;
  const link = (path: string) => withAccount(path, accountId);

  return (
    <div className="space-y-8">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <SummaryCard
          href={link("/dashboard/api-keys")}
          icon={KeyRound}
          title="API keys"
          value={keys.itemsCount}
          detail="active keys"
        />
        <SummaryCard
          href={link("/dashboard/sources")}
          icon={Waypoints}
          title="Sources"
          value={sources.items.length}
          detail="activated, besides the built-in api / default"
        />
        <SummaryCard
          href={link("/dashboard/courier-profiles")}
          icon={Truck}
          title="Courier profiles"
          value={profiles.items.length}
          detail={`${defaults} default${defaults === 1 ? "" : "s"}`}
        />
        <SummaryCard
          href={link("/dashboard/orders/refused")}
          icon={PackageX}
          title="Refused orders"
          value={overview.refusedLast7Days}
          detail="refused or unanswered by the courier and not created since, last 7 days"
        />
      </div>
      <section aria-labelledby="setup-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="setup-title" className="text-base font-semibold text-slate-900">
          Connecting a shop
        </h2>
        <ol className="mt-4 space-y-3">
          <Step done={profiles.items.length > 0}>
            Set up a{" "}
            <Link className="text-blue-700 underline" href={link("/dashboard/courier-profiles")}>
              courier profile
            </Link>
            : the sandbox courier works with no courier contract.
          </Step>
          <Step done={keys.itemsCount > 0}>
            Create an{" "}
            <Link className="text-blue-700 underline" href={link("/dashboard/api-keys")}>
              API key
            </Link>{" "}
            for each system that sends orders.
          </Step>
          <Step done={sources.items.length > 0}>
            If your orders name a <code>ReferenceSource</code> and <code>SourceIdentifier</code>,{" "}
            <Link className="text-blue-700 underline" href={link("/dashboard/sources")}>
              activate the pair
            </Link>
            .
          </Step>
          <Step done={overview.hasSentOrders}>
            Send orders to the shipping API: see the{" "}
            <Link className="text-blue-700 underline" href="/docs" prefetch={false}>
              API reference
            </Link>
            , or make one by hand under{" "}
            <Link className="text-blue-700 underline" href={link("/dashboard/orders/new")}>
              New order
            </Link>
            .
          </Step>
        </ol>
      </section>
    </div>
  );
}
