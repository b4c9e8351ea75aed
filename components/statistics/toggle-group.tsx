"use client";

import { useId } from "react";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";
import { Spinner } from "@/components/ui/spinner";

/**
 * A labelled row of buttons of which one is on (`aria-pressed`), for choices that apply at once: the period,
 * the grouping. `pending` is the value being loaded: its button shows a spinner meanwhile.
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  pending,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  pending?: T | null;
}) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <span id={id} className="block text-sm font-medium text-slate-800">
        {label}
      </span>
      <div role="group" aria-labelledby={id} className="inline-flex max-w-full rounded-lg bg-slate-100 p-1">
        {options.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={option.value === value}
            onClick={() => onChange(option.value)}
            className={cn(
              "inline-flex h-7 items-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap",
              option.value === value
                ? "bg-white text-slate-900 shadow-sm"
                : "text-slate-600 hover:bg-slate-200/60 hover:text-slate-900",
              focusRing,
            )}
          >
            {pending === option.value ? <Spinner className="size-3.5" /> : null}
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}
