"use client";

import { ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Tooltip } from "@/components/ui/tooltip";

export function StaffBadge() {
  return (
    <Tooltip content="Platform staff: you can open and change every partner's account.">
      <Badge tone="violet" tabIndex={0}>
        <ShieldCheck aria-hidden className="size-3.5" />
        Staff
      </Badge>
    </Tooltip>
  );
}
