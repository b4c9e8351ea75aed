"use client";

import { useEffect, useRef, useState } from "react";
import { cn } from "@/lib/cn";

/**
 * A bordered table. On narrow screens each row becomes a card (cells stacked, each with its column's name
 * from `Td`'s `label`), so nothing scrolls sideways and every action stays on screen; from `sm` up it is a
 * table again.
 */
export function Table({ className, ...props }: React.ComponentProps<"table">) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(box);
  return (
    <div
      ref={box}
      // A table wider than the page scrolls; keyboard users reach what is off to the side by focusing the box.
      {...(scrolls
        ? { tabIndex: 0, role: "region", "aria-label": `${props["aria-label"] ?? "Table"}, scrolls sideways` }
        : {})}
      className={cn(
        "relative rounded-lg border border-slate-200 bg-white shadow-sm sm:overflow-x-auto",
        scrolls && "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600",
      )}
    >
      <table className={cn("w-full text-left text-sm max-sm:block", className)} {...props} />
    </div>
  );
}

function useScrollsSideways(ref: React.RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

export function THead(props: React.ComponentProps<"thead">) {
  return (
    <thead
      // Stacked rows name each value themselves; the header row stays for screen readers only.
      className="border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase max-sm:sr-only"
      {...props}
    />
  );
}

export function TBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-slate-100 max-sm:block", className)} {...props} />;
}

export function Tr({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr className={cn("hover:bg-slate-50 max-sm:block max-sm:px-4 max-sm:py-3", className)} {...props} />;
}

export function Th({ className, ...props }: React.ComponentProps<"th">) {
  return <th scope="col" className={cn("px-4 py-2.5 font-medium whitespace-nowrap", className)} {...props} />;
}

/** `label`: the column's name, shown before the value when the row is a card; omit it for a row's title or actions. */
export function Td({ className, label, ...props }: React.ComponentProps<"td"> & { label?: string }) {
  return (
    <td
      data-label={label}
      className={cn(
        "px-4 py-3 align-middle text-slate-700",
        "max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:px-0 max-sm:py-1 max-sm:break-words max-sm:whitespace-normal",
        label &&
          "max-sm:before:font-sans max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-slate-600 max-sm:before:content-[attr(data-label)]",
        className,
      )}
      {...props}
    />
  );
}
