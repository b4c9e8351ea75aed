import { Badge } from "@/components/ui/badge";
import type { ValidationMessage } from "@/lib/validation-message";

/** Validation messages with their field paths, as a partner's integration would see them in the API answer. */
export function MessageList({ messages }: { messages: ValidationMessage[] }) {
  if (messages.length === 0) return <p className="text-sm text-slate-600">No problems found.</p>;
  return (
    <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
      {messages.map((m, i) => (
        <li key={i} className="flex flex-col gap-1 px-3 py-2 text-sm sm:flex-row sm:items-baseline sm:gap-3">
          <span className="flex shrink-0 items-center gap-2">
            <Badge tone={m.severity === "ERROR" ? "red" : "amber"}>
              {m.severity === "ERROR" ? "Error" : "Warning"}
            </Badge>
            <code className="font-mono text-xs text-slate-500">{m.code}</code>
          </span>
          <span className="min-w-0">
            {m.field ? (
              <code className="mr-2 rounded bg-slate-100 px-1 font-mono text-xs text-slate-800">{m.field}</code>
            ) : null}
            <span className="text-slate-800">{m.message}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
