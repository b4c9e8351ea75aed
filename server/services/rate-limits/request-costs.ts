import { addDays, dayIn, daysBetween } from "@/lib/calendar-days";
import { DEFAULT_DAYS, MAX_SPAN_DAYS, statisticsQuery } from "@/server/services/statistics/schemas";

/**
 * What one request counts against the rate limits: one, or more for the operations that cost the platform more. The
 * contract counts each order of a batch as one request; the reads below are weighted by the work they ask for, so a
 * key's (and an account's) limit bounds the work, not the number of calls.
 */
export const REQUEST_COSTS = {
  /** Each order of a validate or create batch. */
  order: 1,
  /** Each label of `GET /labels` (a PDF page, or a ZPL label, drawn per shipping number). */
  label: 1,
  /** Each started block of this many days of a statistics question (30 days: 1; 366 days: 12). */
  statisticsDays: 31,
  /** Each started block of this many events a feed read asks for (`limit` 50, the default: 2; 100: 4). */
  events: 25,
  /** A courier profile check: a call to the courier's own API. */
  courierCheck: 10,
  /**
   * A pickup-point search (`GET /couriers/{courier_id}/pickup-points`, the dashboard's picker): a count of up to 1,000
   * matches and a sorted page, tens of times the work of one point's lookup by its id (which counts one).
   */
  pickupPointSearch: 5,
  /**
   * A pickup-point search by a checkout widget's publishable key: shoppers typing (about four searches a query), each
   * address held by its own limit first. At five each, the contract's default 600 a minute would serve a shop about
   * thirty queries a minute.
   */
  widgetPickupPointSearch: 1,
} as const;

/** Who asks for a pickup-point search: an API key of either kind, or a member in the dashboard (charged as a secret key). */
export type PickupPointSearcher = "secret" | "publishable" | "dashboard";

/** What one pickup-point search counts, by who asks. */
export const pickupPointSearchCost = (searcher: PickupPointSearcher): number =>
  searcher === "publishable" ? REQUEST_COSTS.widgetPickupPointSearch : REQUEST_COSTS.pickupPointSearch;

/** A validate or create batch of `orders` orders. */
export const ordersCost = (orders: number) => Math.max(1, orders) * REQUEST_COSTS.order;

/** `GET /labels` of `numbers` shipping numbers. */
export const labelsCost = (numbers: number) => Math.max(1, numbers) * REQUEST_COSTS.label;

/** A feed read of at most `limit` events. */
export const eventsCost = (limit: number) => Math.max(1, Math.ceil(limit / REQUEST_COSTS.events));

/**
 * A statistics question, by the days it spans (`from`/`to` as `GET /statistics` reads them; without `to`, today in
 * UTC, a day either way changing nothing). A question the service will refuse costs one.
 */
export function statisticsCost(raw: { from?: unknown; to?: unknown }, now = new Date()): number {
  const parsed = statisticsQuery.pick({ from: true, to: true }).safeParse({ from: raw.from, to: raw.to });
  if (!parsed.success) return 1;
  const to = parsed.data.to ?? dayIn("UTC", now);
  const from = parsed.data.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  return statisticsDaysCost(daysBetween(from, to) + 1);
}

/** A statistics question over `days` days (staff's table across accounts asks by days). */
export const statisticsDaysCost = (days: number): number =>
  Math.ceil(Math.min(MAX_SPAN_DAYS + 1, Math.max(1, days)) / REQUEST_COSTS.statisticsDays);
