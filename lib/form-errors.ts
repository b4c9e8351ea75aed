import { toast } from "sonner";
import type { ApiError } from "@/trpc/react";

/** Terse API messages, said as a sentence under the input they belong to. */
const SENTENCES: Record<string, string> = {
  "pair already active": "This pair is already active.",
  required: "Required.",
};

/**
 * A message in the words of the screen: the input's label already names the field, so the API's name for it
 * ("name must have…", "rateLimitPerMinute must be…") is dropped and the rest starts as a sentence.
 */
export function screenMessage(field: string, message: string): string {
  if (SENTENCES[message]) return SENTENCES[message];
  const name = field.split(".").at(-1) ?? field;
  const rest = message.startsWith(`${name} `) ? message.slice(name.length + 1) : message;
  const sentence = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** A failed mutation's field messages, by field, in the words of the screen; `settings.timeoutMs` also counts for `settings`. */
export function fieldErrors(error: ApiError | null) {
  const list = error?.data?.errors ?? [];
  return (field: string): string | undefined => {
    const found = list.find(
      (e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`),
    );
    return found ? screenMessage(found.field, found.message) : undefined;
  };
}

/** Errors a form cannot show beside an input (not found, forbidden, a server failure) become a toast. */
export function toastUnlessFieldErrors(error: ApiError) {
  if (!error.data?.errors?.length) toast.error(error.message);
}
