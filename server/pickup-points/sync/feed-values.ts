import type { OpeningInterval } from "@/db/schema/pickup-points";

/**
 * Readers of one feed value, forgiving in what they accept: Packeta sends every scalar as a string and `{}` for an
 * empty text (pickup-points.md A.3), PPL sends JSON types and `null`; both are read here the same way.
 */

/** Text, or "" for `{}`, `null`, an array or anything else that is not a string or a number. */
export function text(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

/** A finite number from a number or a numeric string ("15", "48.97585"), else null. */
export function num(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const parsed = Number(value.trim().replace(",", "."));
  return Number.isFinite(parsed) ? parsed : null;
}

/** "yes"/"no", "1"/"0", "true"/"false", 1/0 and booleans; anything else is false. */
export function flag(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1;
  return ["yes", "1", "true"].includes(text(value).toLowerCase());
}

const TIME = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** "8:00", "08:00" or a .NET TimeSpan "08:00:00" → "08:00"; null when it is not a time of day. */
export function hhmm(value: unknown): string | null {
  const match = TIME.exec(text(value));
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 24 || minutes > 59) return null;
  return `${String(hours).padStart(2, "0")}:${match[2]}`;
}

/**
 * One day of Packeta's "range representation": "08:00–12:30, 13:30–17:30", with an en-dash (documented) or a hyphen
 * (also in Packeta's examples); "" or `{}` is closed. A range that cannot be read is left out, not guessed.
 */
export function dayRanges(day: number, value: unknown): OpeningInterval[] {
  return text(value)
    .split(",")
    .flatMap((range) => {
      const [from, to, ...rest] = range.split(/\s*[–—-]\s*/);
      const start = hhmm(from);
      const end = hhmm(to);
      return rest.length === 0 && start && end ? [{ day, from: start, to: end }] : [];
    });
}

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** The object's own property, or undefined when it is not an object (`{}` and strings stand for "nothing"). */
export function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
