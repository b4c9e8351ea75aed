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
        {/* The name starts with what the button shows (WCAG 2.5.3): the name, or the email when there is none. */}
        <Button variant="ghost" className="max-w-64" aria-label={`${user.name ?? user.email}: account menu`}>
          <span
            aria-hidden
            className="flex size-7 shrink-0 items-center justify-center rounded-full bg-blue-600 text-xs font-semibold text-white"
          >
            {initial}
          </span>
          <span className="hidden truncate sm:inline">{user.name ?? user.email}</span>
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
