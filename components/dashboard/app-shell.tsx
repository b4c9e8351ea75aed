"use client";

import { TooltipProvider } from "@/components/ui/tooltip";
import type { AccountChoice } from "@/lib/account";
import { Brand } from "./brand";
import { MobileNav } from "./mobile-nav";
import { Sidebar } from "./sidebar";
import { StaffBadge } from "./staff-badge";
import { UserMenu, type DashboardUser } from "./user-menu";

/** Sidebar, top bar and the page: the frame of every dashboard page. */
export function AppShell({
  user,
  accounts,
  children,
}: {
  user: DashboardUser;
  accounts: AccountChoice[];
  children: React.ReactNode;
}) {
  return (
    <TooltipProvider delayDuration={300}>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <aside className="fixed inset-y-0 left-0 hidden w-64 border-r border-slate-200 bg-white lg:block">
        <Sidebar accounts={accounts} />
      </aside>
      <div className="flex min-h-screen flex-col lg:pl-64">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6">
          <MobileNav accounts={accounts} />
          <span className="lg:hidden">
            <Brand />
          </span>
          <div className="ml-auto flex items-center gap-3">
            {user.isStaff ? <StaffBadge /> : null}
            <UserMenu user={user} />
          </div>
        </header>
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8">
          <div className="mx-auto max-w-6xl">{children}</div>
        </main>
      </div>
    </TooltipProvider>
  );
}
