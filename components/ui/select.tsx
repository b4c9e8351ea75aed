"use client";

import { Check, ChevronDown } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import { cn } from "@/lib/cn";
import { fieldControl } from "./input";

export const Select = SelectPrimitive.Root;

export function SelectTrigger({
  className,
  placeholder,
  ...props
}: React.ComponentProps<typeof SelectPrimitive.Trigger> & { placeholder?: string }) {
  return (
    <SelectPrimitive.Trigger
      className={cn(fieldControl, "flex h-9 items-center justify-between gap-2 text-left", className)}
      {...props}
    >
      <span className="truncate">
        <SelectPrimitive.Value placeholder={placeholder} />
      </span>
      <SelectPrimitive.Icon>
        <ChevronDown aria-hidden className="size-4 text-slate-500" />
      </SelectPrimitive.Icon>
    </SelectPrimitive.Trigger>
  );
}

export function SelectContent({ children }: { children: React.ReactNode }) {
  return (
    <SelectPrimitive.Portal>
      <SelectPrimitive.Content
        position="popper"
        sideOffset={4}
        className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg"
      >
        <SelectPrimitive.Viewport className="p-1">{children}</SelectPrimitive.Viewport>
      </SelectPrimitive.Content>
    </SelectPrimitive.Portal>
  );
}

export function SelectItem({
  children,
  description,
  ...props
}: React.ComponentProps<typeof SelectPrimitive.Item> & { description?: string }) {
  return (
    <SelectPrimitive.Item
      className="relative flex cursor-default flex-col rounded-md py-2 pr-2.5 pl-8 text-sm text-slate-800 outline-none select-none data-[highlighted]:bg-slate-100"
      {...props}
    >
      <SelectPrimitive.ItemIndicator className="absolute top-2.5 left-2.5">
        <Check aria-hidden className="size-4 text-blue-600" />
      </SelectPrimitive.ItemIndicator>
      <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
      {description ? <span className="text-xs text-slate-500">{description}</span> : null}
    </SelectPrimitive.Item>
  );
}
