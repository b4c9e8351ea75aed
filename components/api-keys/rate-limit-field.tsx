import { TextField } from "@/components/ui/field";

export const DEFAULT_RATE_LIMIT = 600;

/**
 * The typed number, or NaN for text that is none, so the server's message ("a whole number from 1 to
 * 100000") is the one shown; empty means the default on create.
 */
export function parseRateLimit(text: string): number | undefined {
  const value = text.trim();
  return value === "" ? undefined : Number(value);
}

export function RateLimitField({
  id,
  defaultValue,
  error,
  autoFocus,
}: {
  id: string;
  defaultValue: number;
  error?: string;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      id={id}
      name="rateLimitPerMinute"
      label="Rate limit (requests per minute)"
      hint={`Requests past it get 429 until the minute is over; each order of a batch counts. 1 to 100000, default ${DEFAULT_RATE_LIMIT}.`}
      type="number"
      inputMode="numeric"
      min={1}
      max={100_000}
      step={1}
      defaultValue={defaultValue}
      required
      autoFocus={autoFocus}
      error={error}
      className="max-w-40"
    />
  );
}
