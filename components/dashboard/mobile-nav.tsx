"use client";

import { Menu } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/sheet";
import type { AccountChoice } from "@/lib/account";
import { Sidebar } from "./sidebar";

export function MobileNav({ accounts }: { accounts: AccountChoice[] }) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open navigation">
          <Menu aria-hidden className="size-5" />
        </Button>
      </SheetTrigger>
      <SheetContent title="Navigation">
        <Sidebar accounts={accounts} onNavigate={() => setOpen(false)} />
      </SheetContent>
    </Sheet>
  );
}
