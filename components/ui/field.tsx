import { Input } from "./input";
import { Label } from "./label";

/** The ids that tie a control to its hint and error message, for screen readers. */
export function describedBy(id: string, { hint, error }: { hint?: React.ReactNode; error?: string }) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** A label, a control, an optional hint and the field's error message. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = React.ComponentProps<"input"> & {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: string;
};

export function TextField({ id, label, hint, error, ...props }: TextFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error })}
        {...props}
      />
    </Field>
  );
}
