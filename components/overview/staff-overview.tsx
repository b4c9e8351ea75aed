"use client";

import { CircleAlert, PackageX, TrendingDown } from "lucide-react";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { formatTime, UTC } from "@/lib/format-time";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { api } from "@/trpc/react";

function Panel({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

const linkClass = "font-medium break-all text-blue-700 underline-offset-2 hover:underline";

/**
 * What staff land on: failures across every account, newest first, and the accounts that keep failing. The accounts
 * keep time zones of their own, so the times here are UTC (as the API gives them), said once above the panels.
 */
export function StaffOverview() {
  const [overview] = api.overview.staff.useSuspenseQuery();
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">Times are in UTC: the accounts keep time zones of their own.</p>
      <div className="grid gap-4 sm:grid-cols-3">
        {[
          { icon: CircleAlert, title: "Validation errors", value: overview.validationErrorsLast7Days },
          { icon: PackageX, title: "Refused by the courier", value: overview.refusalsLast7Days },
          { icon: TrendingDown, title: "Accounts on a failure streak", value: overview.failureStreaks.length },
        ].map(({ icon: Icon, title, value }) => (
          <div key={title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <span className="flex items-center gap-2 text-sm font-medium text-slate-600">
              <Icon aria-hidden className="size-4 text-slate-500" />
              {title}
            </span>
            <span className="mt-2 block text-3xl font-semibold text-slate-900">{value}</span>
            <span className="mt-1 block text-sm text-slate-600">last 7 days, every account</span>
          </div>
        ))}
      </div>
      <Panel id="streaks-title" title="Accounts whose latest attempts all failed">
        {overview.failureStreaks.length === 0 ? (
          <p className="text-sm text-slate-600">No account has failed three times in a row this week.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {overview.failureStreaks.map((s) => (
              <li key={s.accountId} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
                <Link className={linkClass} href={withAccount("/dashboard/validation-results", s.accountId)}>
                  {s.accountName}
                </Link>
                <span className="text-slate-600">
                  <Badge tone="red">{s.failures} failures in a row</Badge> last {formatTime(s.lastFailure, UTC)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="staff-refusals-title" title="Latest refusals">
          {overview.recentRefusals.length === 0 ? (
            <EmptyState icon={PackageX} title="No refusals" />
          ) : (
            <ul className="divide-y divide-slate-100">
              {overview.recentRefusals.map((r) => (
                <li key={r.id} className="py-2 text-sm">
                  <Link className={linkClass} href={withAccount("/dashboard/orders/refused", r.accountId)}>
                    {r.referenceNumber}
                  </Link>{" "}
                  <span className="text-slate-600">· {r.accountName}</span>
                  <span className="block text-xs text-slate-600">
                    {formatTime(r.created, UTC)} · {r.courierName}: {r.message}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel id="staff-errors-title" title="Latest validation errors">
          {overview.recentValidationErrors.length === 0 ? (
            <EmptyState icon={CircleAlert} title="No validation errors" />
          ) : (
            <ul className="divide-y divide-slate-100">
              {overview.recentValidationErrors.map((r) => (
                <li key={r.id} className="py-2 text-sm">
                  <Link className={linkClass} href={withAccount("/dashboard/validation-results", r.accountId)}>
                    {r.referenceNumber ?? "An order without reference"}
                  </Link>{" "}
                  <span className="text-slate-600">· {r.accountName}</span>
                  <span className="block text-xs text-slate-600">
                    {formatTime(r.created, UTC)} · {r.errors} {r.errors === 1 ? "error" : "errors"} ·{" "}
                    {r.operation === "create" ? "Create" : "Validate"} with {r.courierName}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}
