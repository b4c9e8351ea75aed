import { dayParam, paramValue, paramValues, searchOf, type SearchParamsRecord } from "@/lib/search-params";
import { addDays, todayIn, type Grouping } from "./period";

/**
 * The Statistics page's choices, all kept in the URL so a reload or a shared link shows the same figures:
 * `period` (7, 30 or 90 days up to today, or `custom` with `from` and `to`), `groupBy`, `by`, and the
 * filters `referenceSource` + `sourceIdentifier`, `courier` and `courierProfile` (repeatable). Defaults are
 * left out of the URL, so the plain page link is the last 30 days by day and by source pair.
 */
export const PRESET_PERIODS = ["7", "30", "90"] as const;
export type PresetPeriod = (typeof PRESET_PERIODS)[number];
export type PeriodChoice = PresetPeriod | "custom";
export const DEFAULT_PERIOD: PresetPeriod = "30";

export const GROUPINGS = ["day", "week", "month"] as const satisfies readonly Grouping[];
export const groupingLabel: Record<Grouping, string> = { day: "Day", week: "Week", month: "Month" };

export const DIMENSIONS = ["sourcePair", "courier", "courierProfile"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const dimensionLabel: Record<Dimension, string> = {
  sourcePair: "Source pair",
  courier: "Courier",
  courierProfile: "Courier profile",
};

export type StatisticsFilters = {
  period: PeriodChoice;
  /** The days of a custom period as the URL gives them ("" when not set); empty for a preset. */
  from: string;
  to: string;
  groupBy: Grouping;
  by: Dimension;
  referenceSource: string;
  sourceIdentifier: string;
  courier: string[];
  courierProfile: string[];
};

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

export function parseStatisticsFilters(params: SearchParamsRecord): StatisticsFilters {
  const from = dayParam(params, "from");
  const to = dayParam(params, "to");
  const period = paramValue(params, "period");
  // A link with days but no period (as the REST API takes them) means those days.
  const choice: PeriodChoice =
    period === "custom" || (!period && (from || to)) ? "custom" : oneOf(PRESET_PERIODS, period, DEFAULT_PERIOD);
  const referenceSource = paramValue(params, "referenceSource");
  const sourceIdentifier = paramValue(params, "sourceIdentifier");
  return {
    period: choice,
    from: choice === "custom" ? from : "",
    to: choice === "custom" ? to : "",
    groupBy: oneOf(GROUPINGS, paramValue(params, "groupBy"), "day"),
    by: oneOf(DIMENSIONS, paramValue(params, "by"), "sourcePair"),
    // A pair is one choice: half of one narrows nothing the page can show, so it is dropped.
    referenceSource: referenceSource && sourceIdentifier ? referenceSource : "",
    sourceIdentifier: referenceSource && sourceIdentifier ? sourceIdentifier : "",
    courier: paramValues(params, "courier"),
    courierProfile: paramValues(params, "courierProfile"),
  };
}

/** The query string of these choices, defaults left out; the account parameter is added by the navigation. */
export function statisticsSearch(f: StatisticsFilters): URLSearchParams {
  return searchOf({
    period: f.period === DEFAULT_PERIOD ? undefined : f.period,
    from: f.period === "custom" ? f.from : undefined,
    to: f.period === "custom" ? f.to : undefined,
    groupBy: f.groupBy === "day" ? undefined : f.groupBy,
    by: f.by === "sourcePair" ? undefined : f.by,
    referenceSource: f.referenceSource,
    sourceIdentifier: f.sourceIdentifier,
    courier: f.courier,
    courierProfile: f.courierProfile,
  });
}

/** How many filters narrow the figures (the pair counts once), for the folded filter panel on phones. */
export const activeFilterCount = (f: StatisticsFilters): number =>
  (f.referenceSource ? 1 : 0) + (f.courier.length ? 1 : 0) + (f.courierProfile.length ? 1 : 0);

/**
 * The days counted: a preset ends today in the account's time zone; a custom period takes its days, the
 * missing one filled in as the service would (today, or 30 days before `to`). Decided on the server, so the
 * browser asks for the same days it was sent.
 */
export function periodRange(f: StatisticsFilters, timeZone: string, now: Date): { from: string; to: string } {
  const today = todayIn(timeZone, now);
  if (f.period !== "custom") return { from: addDays(today, -(Number(f.period) - 1)), to: today };
  const to = f.to || (f.from && f.from > today ? f.from : today);
  return { from: f.from || addDays(to, -29), to };
}

/** What `api.statistics.get` is asked: one object for the server's prefetch and the page's query (one cache entry). */
export function statisticsInput(accountId: string, f: StatisticsFilters, range: { from: string; to: string }) {
  return {
    accountId,
    from: range.from,
    to: range.to,
    groupBy: f.groupBy,
    by: [f.by],
    ...(f.referenceSource ? { referenceSource: f.referenceSource, sourceIdentifier: f.sourceIdentifier } : {}),
    ...(f.courier.length ? { courier: f.courier } : {}),
    ...(f.courierProfile.length ? { courierProfile: f.courierProfile } : {}),
  };
}

export type StatisticsInput = ReturnType<typeof statisticsInput>;

/** Staff's cross-account table: each account's last 7, 30 or 90 days, in its own time zone (the server's to count). */
export function staffPeriod(params: SearchParamsRecord) {
  const period = oneOf(PRESET_PERIODS, paramValue(params, "period"), DEFAULT_PERIOD);
  return { period, days: Number(period) };
}
