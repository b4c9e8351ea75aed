"use client";

import { ChevronDown } from "lucide-react";
import { cn } from "@/lib/cn";
import { DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuTrigger } from "./dropdown-menu";
import { fieldControl } from "./input";

type Option = { value: string; label: string };

/**
 * Several values from a short list, as a menu of checkboxes under a label. The trigger is named by the
 * label and what is chosen, so it reads as "Status: Delivered, Returned".
 */
export function MultiSelect({
  id,
  label,
  options,
  value,
  onChange,
  anyLabel = "Any",
}: {
  id: string;
  label: string;
  options: readonly Option[];
  value: string[];
  onChange: (value: string[]) => void;
  anyLabel?: string;
}) {
  const chosen = options.filter((o) => value.includes(o.value));
  const summary =
    chosen.length === 0
      ? anyLabel
      : chosen.length <= 2
        ? chosen.map((o) => o.label).join(", ")
        : `${chosen.length} selected`;
  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="block text-sm font-medium text-slate-800">
        {label}
      </span>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          id={id}
          aria-labelledby={`${id}-label ${id}-value`}
          className={cn(fieldControl, "flex h-9 items-center justify-between gap-2 text-left")}
        >
          <span id={`${id}-value`} className={cn("truncate", chosen.length === 0 && "text-slate-500")}>
            {summary}
          </span>
          <ChevronDown aria-hidden className="size-4 shrink-0 text-slate-500" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="min-w-[var(--radix-dropdown-menu-trigger-width)]">
          {options.map((option) => (
            <DropdownMenuCheckboxItem
              key={option.value}
              checked={value.includes(option.value)}
              onCheckedChange={(on) =>
                // Kept in the options' order, so the URL and the summary do not depend on the order of clicks.
                onChange(
                  on
                    ? options.filter((o) => o.value === option.value || value.includes(o.value)).map((o) => o.value)
                    : value.filter((v) => v !== option.value),
                )
              }
            >
              {option.label}
            </DropdownMenuCheckboxItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
