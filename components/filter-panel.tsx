"use client";

import { ChevronDown, SlidersHorizontal } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";

/**
 * The frame of a list's filter form. On wide screens the filters are always shown; on narrow ones they
 * fold behind a "Filters" button so the list is visible without scrolling past them.
 */
export function FilterPanel({
  label,
  active,
  onSubmit,
  children,
}: {
  label: string;
  active: number;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={label}
      className="mb-6 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className={cn(
          "flex w-full items-center justify-between gap-2 rounded-lg px-4 py-3 text-sm font-medium text-slate-800 sm:hidden",
          focusRing,
        )}
      >
        <span className="flex items-center gap-2">
          <SlidersHorizontal aria-hidden className="size-4 text-slate-500" />
          Filters
          {active > 0 ? (
            <span className="rounded-full bg-blue-100 px-2 text-xs text-blue-800">{active} active</span>
          ) : null}
        </span>
        <ChevronDown aria-hidden className={cn("size-4 text-slate-500 transition-transform", open && "rotate-180")} />
      </button>
      <div id={id} className={cn("p-4 max-sm:border-t max-sm:border-slate-200", open ? "block" : "max-sm:hidden")}>
        {children}
      </div>
    </form>
  );
}

/** Buttons lined up with the inputs of the row they sit in (whose labels sit above them). */
export function FilterActions({ children }: { children: React.ReactNode }) {
  return (
    <div className="space-y-1.5">
      <span aria-hidden className="block text-sm max-sm:hidden">
        &nbsp;
      </span>
      <div className="flex gap-2">{children}</div>
    </div>
  );
}
