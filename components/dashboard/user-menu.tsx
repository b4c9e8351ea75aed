"use client";

import { ChevronDown, LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

export type DashboardUser = { email: string; name: string | null; isStaff: boolean };

export function UserMenu({ user }: { user: DashboardUser }) {
  const initial = (user.name ?? user.email).charAt(0).toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by what it shows (WCAG 2.5.3), with its purpose for screen readers; on a phone only the initial shows. */}
        <Button variant="ghost" className="max-w-64">
          <span
            aria-hidden
            className="flex size-7 shrink-0 items-center justify-center rounded-full bg-blue-600 text-xs font-semibold text-white"
          >
            {initial}
          </span>
          <span className="truncate max-sm:sr-only">{user.name ?? user.email}</span>
          <span className="sr-only">: account menu</span>
          <ChevronDown aria-hidden className="size-4 text-slate-500" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <p className="font-medium text-slate-900">{user.name ?? "Signed in"}</p>
          <p className="truncate text-xs text-slate-500">{user.email}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut({ callbackUrl: "/sign-in" })}>
          <LogOut aria-hidden className="size-4 text-slate-500" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
