import { cn } from "./cn";

/** A bordered table that scrolls sideways on narrow screens instead of squeezing its columns. */
export function Table({ className, ...props }: React.ComponentProps<"table">) {
  return (
    // `relative` keeps visually hidden (absolutely positioned) header text inside the scroll area on narrow screens.
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className={cn("w-full text-left text-sm", className)} {...props} />
    </div>
  );
}

export function THead(props: React.ComponentProps<"thead">) {
  return (
    <thead
      className="border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase"
      {...props}
    />
  );
}

export function TBody(props: React.ComponentProps<"tbody">) {
  return <tbody className="divide-y divide-slate-100" {...props} />;
}

export function Th({ className, ...props }: React.ComponentProps<"th">) {
  return <th scope="col" className={cn("px-4 py-2.5 font-medium whitespace-nowrap", className)} {...props} />;
}

export function Td({ className, ...props }: React.ComponentProps<"td">) {
  return <td className={cn("px-4 py-3 align-middle text-slate-700", className)} {...props} />;
}
