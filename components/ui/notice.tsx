import { CircleAlert, Info, TriangleAlert } from "lucide-react";
import { cn } from "@/lib/cn";

const tones = {
  info: { box: "border-blue-200 bg-blue-50 text-blue-900", icon: Info },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-900", icon: TriangleAlert },
  error: { box: "border-red-200 bg-red-50 text-red-900", icon: CircleAlert },
} as const;

/** A highlighted message inside a page or dialog. Errors are announced to screen readers. */
export function Notice({
  tone = "info",
  children,
  className,
}: {
  tone?: keyof typeof tones;
  children: React.ReactNode;
  className?: string;
}) {
  const { box, icon: Icon } = tones[tone];
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      className={cn("flex gap-2.5 rounded-md border px-3 py-2.5 text-sm", box, className)}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div>{children}</div>
    </div>
  );
}
