"use client";

import { Label as LabelPrimitive } from "radix-ui";
import { cn } from "@/lib/cn";

export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root className={cn("block text-sm font-medium text-slate-800", className)} {...props} />;
}
