import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";

export const fieldControl = cn(
  "block w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-500",
  "aria-invalid:border-red-500 disabled:bg-slate-100 disabled:text-slate-500",
  focusRing,
);

export function Input({ className, ...props }: React.ComponentProps<"input">) {
  return <input className={cn(fieldControl, "h-9", className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea className={cn(fieldControl, "py-2", className)} {...props} />;
}
