import { z } from "zod";
import { courierIds } from "@/server/couriers/registry";

/** The calendar's limits: PostgreSQL has no year 0, and a `date` past 9999 has no `yyyy-MM-dd` form. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day: `Date` would roll 2026-02-30 over into March. */
export function isCalendarDay(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = m.slice(1, 4).map(Number);
  if (y! < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(y!, mo! - 1, d!);
  return date.getUTCMonth() === mo! - 1 && date.getUTCDate() === d!;
}

const dayParam = z.string().regex(DATE, "must be a date yyyy-MM-dd").refine(isCalendarDay, "is not a valid date");

export const GROUP_BY = ["day", "week", "month"] as const;
export const DIMENSIONS = ["sourcePair", "courier", "courierProfile"] as const;
export type GroupBy = (typeof GROUP_BY)[number];
export type Dimension = (typeof DIMENSIONS)[number];

/** At most this many days from `from` to `to` (the contract's "at most 366 days apart"). */
export const MAX_SPAN_DAYS = 366;
/** The period when none is given: the last 30 days, today included. */
export const DEFAULT_DAYS = 30;

export const STATISTICS_ARRAY_PARAMS = ["by", "courier", "courierProfile"] as const;

const MAX_VALUES = 100;

export const statisticsQuery = z.object({
  from: dayParam.optional(),
  to: dayParam.optional(),
  groupBy: z.enum(GROUP_BY, `must be one of ${GROUP_BY.join(", ")}`).default("day"),
  by: z.array(z.enum(DIMENSIONS, `must be among ${DIMENSIONS.join(", ")}`)).optional(),
  referenceSource: z.string().min(1).max(64).optional(),
  sourceIdentifier: z.string().min(1).max(64).optional(),
  courier: z
    .array(z.string().refine((c) => courierIds().includes(c), "is not a known courier id"))
    .max(MAX_VALUES, `at most ${MAX_VALUES} values`)
    .optional(),
  courierProfile: z.array(z.uuid("must be UUIDs")).max(MAX_VALUES, `at most ${MAX_VALUES} values`).optional(),
});

export type StatisticsQuery = z.input<typeof statisticsQuery>;
export type StatisticsParams = z.output<typeof statisticsQuery>;

export const codAmount = z.object({
  currency: z.string().describe("ISO 4217, as the orders gave it."),
  amount: z
    .number()
    .describe(
      "The sum of `CodPrice` of the orders created in the period that are still live (not replaced or deleted since), in this currency.",
    ),
});

export const statisticsItem = z.object({
  period: z.string().describe("The period's first day, `yyyy-MM-dd` (a week's Monday, a month's 1st)."),
  referenceSource: z.string().nullable(),
  sourceIdentifier: z.string().nullable(),
  courier: z.string().nullable(),
  courierProfile: z.uuid().nullable(),
  created: z.number().int(),
  replaced: z.number().int(),
  cancelled: z.number().int(),
  refused: z.number().int(),
  delivered: z.number().int(),
  returned: z.number().int(),
  validations: z.object({ ok: z.number().int(), warning: z.number().int(), error: z.number().int() }),
  cod: z.array(codAmount),
});

export const statisticsView = z.object({
  from: z.string().describe("The first day counted, `yyyy-MM-dd`."),
  to: z.string().describe("The last day counted, `yyyy-MM-dd`."),
  groupBy: z.enum(GROUP_BY),
  timeZone: z.string().describe("The account's IANA time zone, whose calendar days are counted."),
  items: z.array(statisticsItem),
});

export type StatisticsItem = z.infer<typeof statisticsItem>;
export type StatisticsView = z.infer<typeof statisticsView>;
export type Figures = Omit<
  StatisticsItem,
  "period" | "referenceSource" | "sourceIdentifier" | "courier" | "courierProfile"
>;

/** One account's figures summed over a period: a row of the staff's cross-account table. */
export type AccountFigures = Figures & { accountId: string; accountName: string; timeZone: string };
