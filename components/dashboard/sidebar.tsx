import Link from "next/link";
import { BookOpen } from "lucide-react";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";
import { AccountSwitcher } from "./account-switcher";
import type { AccountChoice } from "@/lib/account";
import { Brand } from "./brand";
import { SidebarNav } from "./sidebar-nav";

/** The sidebar's content, shown fixed on wide screens and in a sheet on narrow ones. */
export function Sidebar({ accounts, onNavigate }: { accounts: AccountChoice[]; onNavigate?: () => void }) {
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 items-center border-b border-slate-200 px-6">
        <Brand />
      </div>
      <div className="border-b border-slate-200 py-4">
        <AccountSwitcher accounts={accounts} />
      </div>
      <SidebarNav accounts={accounts} onNavigate={onNavigate} />
      <div className="border-t border-slate-200 p-3">
        <Link
          href="/docs"
          prefetch={false}
          className={cn(
            "flex items-center gap-3 rounded-md px-3 py-2 text-sm text-slate-600 hover:bg-slate-100",
            focusRing,
          )}
        >
          <BookOpen aria-hidden className="size-4 text-slate-500" />
          API reference
        </Link>
      </div>
    </div>
  );
}
