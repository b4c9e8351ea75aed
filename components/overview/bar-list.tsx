import Link from "next/link";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";

export type Bar = { key: string; label: React.ReactNode; value: number; href?: string };

/**
 * Figures as a list of labelled bars, scaled to the largest. The number is text and the bar decoration,
 * so screen readers read "Delivered 12".
 */
export function BarList({ bars, tone = "bg-blue-500", label }: { bars: Bar[]; tone?: string; label: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <ul aria-label={label} className="space-y-2">
      {bars.map((bar) => {
        const content = (
          <>
            <span className="flex items-baseline justify-between gap-3 text-sm">
              <span className="min-w-0 truncate text-slate-700">{bar.label}</span>
              <span className="font-medium text-slate-900 tabular-nums">{bar.value}</span>
            </span>
            <span aria-hidden className="mt-1 block h-2 rounded-full bg-slate-100">
              <span className={cn("block h-2 rounded-full", tone)} style={{ width: `${(bar.value / max) * 100}%` }} />
            </span>
          </>
        );
        return (
          <li key={bar.key}>
            {bar.href ? (
              <Link href={bar.href} className={cn("block rounded-md p-1 -m-1 hover:bg-slate-50", focusRing)}>
                {content}
              </Link>
            ) : (
              content
            )}
          </li>
        );
      })}
    </ul>
  );
}
