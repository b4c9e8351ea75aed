"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";
import { ACCOUNT_PARAM, pickAccount, withAccount, type AccountChoice } from "@/lib/account";
import { navItems } from "@/lib/nav-items";

export function SidebarNav({ accounts, onNavigate }: { accounts: AccountChoice[]; onNavigate?: () => void }) {
  const pathname = usePathname();
  const accountId = useSearchParams().get(ACCOUNT_PARAM);
  const role = pickAccount(accounts, accountId)?.role;
  const items = navItems.filter((item) => !item.roles || (role !== undefined && item.roles.includes(role)));
  return (
    <nav aria-label="Dashboard" className="flex-1 px-3 py-4">
      <ul className="space-y-1">
        {items.map(({ href, label, icon: Icon }) => {
          const active =
            href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
          return (
            <li key={href}>
              <Link
                href={withAccount(href, accountId)}
                onClick={onNavigate}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
                  active ? "bg-blue-50 text-blue-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                  focusRing,
                )}
              >
                <Icon aria-hidden className={cn("size-4", active ? "text-blue-600" : "text-slate-500")} />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
