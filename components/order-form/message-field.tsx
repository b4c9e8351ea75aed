import { CircleAlert, TriangleAlert } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ValidationMessage } from "@/lib/validation-message";
import { atFieldText, fieldId } from "@/lib/order-form/order-paths";
import { SuggestionButtons } from "./suggestion-buttons";

/** What ties a control to its hint and its messages, for screen readers; errors (not warnings) make it invalid. */
export type FieldA11y = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/**
 * A labelled control for one field path, with the validation messages of that path under it. The control
 * is rendered by `children`, which gets the id and ARIA attributes to put on it.
 */
export function MessageField({
  path,
  label,
  hint,
  messages,
  children,
}: {
  path: string;
  label: string;
  hint?: string;
  messages: ValidationMessage[];
  children: (a11y: FieldA11y) => React.ReactNode;
}) {
  const id = fieldId(path);
  const described = [hint ? `${id}-hint` : null, messages.length ? `${id}-messages` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        "aria-invalid": messages.some((m) => m.severity === "ERROR") || undefined,
        "aria-describedby": described || undefined,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {messages.length ? (
        <ul id={`${id}-messages`} className="space-y-1">
          {messages.map((m, i) => {
            const Icon = m.severity === "ERROR" ? CircleAlert : TriangleAlert;
            return (
              <li
                key={i}
                className={`flex gap-1.5 text-sm ${m.severity === "ERROR" ? "text-red-700" : "text-amber-800"}`}
              >
                <Icon aria-hidden className="mt-0.5 size-3.5 shrink-0" />
                <span>
                  <span className="sr-only">{m.severity === "ERROR" ? "Error: " : "Warning: "}</span>
                  {atFieldText(m)}
                  <SuggestionButtons message={m} />
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/** A text input for a field path; its `name` is the path, which `buildOrder` reads. */
export function MessageInput({
  path,
  label,
  hint,
  messages,
  ...props
}: { path: string; label: string; hint?: string; messages: ValidationMessage[] } & React.ComponentProps<"input">) {
  return (
    <MessageField path={path} label={label} hint={hint} messages={messages}>
      {(a11y) => <Input name={path} {...a11y} {...props} />}
    </MessageField>
  );
}
