import { toast } from "sonner";
import type { ApiError } from "@/trpc/react";

/** A failed mutation's field messages, by field; `settings.timeoutMs` also counts for `settings`. */
export function fieldErrors(error: ApiError | null) {
  const list = error?.data?.errors ?? [];
  return (field: string): string | undefined =>
    list.find((e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`))?.message;
}

/** Errors a form cannot show beside an input (not found, forbidden, a server failure) become a toast. */
export function toastUnlessFieldErrors(error: ApiError) {
  if (!error.data?.errors?.length) toast.error(error.message);
}
