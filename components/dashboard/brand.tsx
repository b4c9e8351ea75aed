import { Package } from "lucide-react";

export function Brand() {
  return (
    <span className="flex items-center gap-2 font-semibold text-slate-900">
      <span className="flex size-8 items-center justify-center rounded-lg bg-blue-600 text-white">
        <Package aria-hidden className="size-4" />
      </span>
      Shipping orders
    </span>
  );
}
