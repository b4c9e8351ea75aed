import { queryRows, uuidArray, type Executor } from "@/db/client";
import { addDays, dayIn, daysBetween } from "@/lib/calendar-days";
import { AppError, badField, notFound } from "@/server/errors";
import type { Actor } from "../authorization";
import {
  DEFAULT_DAYS,
  MAX_SPAN_DAYS,
  statisticsQuery,
  type Dimension,
  type Figures,
  type GroupBy,
  type StatisticsItem,
  type StatisticsParams,
  type StatisticsView,
} from "./schemas";

export { addDays, dayIn, daysBetween } from "@/lib/calendar-days";

/**
 * The period asked for, with the defaults filled in: `to` today in the account's time zone, `from` 29 days
 * before `to` (30 days, both ends counted). `from` after `to` or more than 366 days before it → 400.
 */
export function resolvePeriod(
  params: Pick<StatisticsParams, "from" | "to">,
  timeZone: string,
  now: Date,
): { from: string; to: string } {
  const to = params.to ?? (params.from ? maxDay(params.from, dayIn(timeZone, now)) : dayIn(timeZone, now));
  const from = params.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  if (from > to) throw badField(params.from ? "from" : "to", `must not be after to (${to})`);
  if (daysBetween(from, to) > MAX_SPAN_DAYS)
    throw badField("to", `must be at most ${MAX_SPAN_DAYS} days after from (${from})`);
  if (from < "0001-01-01") throw badField("to", "is too early: the 30 days before it start before the year 1");
  return { from, to };
}

/** Without `to`, a `from` in the future counts up to itself rather than being refused for being after today. */
const maxDay = (a: string, b: string) => (a > b ? a : b);

const PERIOD: Record<GroupBy, string> = {
  day: "day",
  week: "date_trunc('week', day::timestamp)::date",
  month: "date_trunc('month', day::timestamp)::date",
};

const KEY_COLUMNS: Record<Dimension, string[]> = {
  sourcePair: ["reference_source", "source_identifier"],
  courier: ["courier"],
  courierProfile: ["courier_profile_id"],
};

const FIGURE_COLUMNS = `created, replaced, cancelled, refused, delivered, returned, validations_ok, validations_warning, validations_error, cod`;

/**
 * Both tables of the figures, filtered alike: the compacted days and the deltas the worker has not folded in
 * yet. One statement, so one snapshot: a compaction moving rows from one to the other is seen whole or not at all.
 * `$1` the account (or null: every account), `$2`/`$3` the days, then the filters (null: any).
 */
const figuresOf = (table: string) => `
  select account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency, ${FIGURE_COLUMNS}
  from ${table}
  where ($1::uuid is null or account_id = $1::uuid) and day between $2::date and $3::date
    and ($4::text is null or reference_source = $4::text)
    and ($5::text is null or source_identifier = $5::text)
    and ($6::text[] is null or courier = any($6::text[]))
    and ($7::uuid[] is null or courier_profile_id = any($7::uuid[]))`;

const SUMS = `sum(created)::int as created, sum(replaced)::int as replaced, sum(cancelled)::int as cancelled,
  sum(refused)::int as refused, sum(delivered)::int as delivered, sum(returned)::int as returned,
  sum(validations_ok)::int as ok, sum(validations_warning)::int as warning, sum(validations_error)::int as error,
  (sum(cod) filter (where currency <> ''))::text as cod`;

/** The statement for one grouping; its text depends only on `groupBy` and `by`, so there are few of them. */
export function statisticsSql(groupBy: GroupBy, by: readonly Dimension[]): string {
  const keys = Object.entries(KEY_COLUMNS).flatMap(([dimension, columns]) =>
    columns.map((column) => (by.includes(dimension as Dimension) ? column : `null::text as ${column}`)),
  );
  const grouped = Object.entries(KEY_COLUMNS)
    .filter(([dimension]) => by.includes(dimension as Dimension))
    .flatMap(([, columns]) => columns);
  const keyNames = Object.values(KEY_COLUMNS).flat();
  // Summed per key and currency (`g`), then per key with the currencies' COD gathered (`i`), and the answer's items
  // built as one JSON text: the app parses one string instead of a row per key and currency (the row decoding
  // was most of the request's CPU, bench/results.md). Counters live on the currency "" rows, COD on the others.
  return `
    with f as (${figuresOf("statistics_daily")} union all ${figuresOf("statistics_deltas")}),
    g as (
      select ${PERIOD[groupBy]} as period, ${keys.join(", ")}, currency, ${SUMS}
      from f
      group by 1, ${[...grouped, "currency"].join(", ")}),
    i as (
      select period, ${keyNames.join(", ")},
        sum(created)::int as created, sum(replaced)::int as replaced, sum(cancelled)::int as cancelled,
        sum(refused)::int as refused, sum(delivered)::int as delivered, sum(returned)::int as returned,
        sum(ok)::int as ok, sum(warning)::int as warning, sum(error)::int as error,
        coalesce(json_agg(json_build_object('currency', currency, 'amount', cod::numeric) order by currency)
          filter (where currency <> '' and cod::numeric <> 0), '[]') as cod
      from g
      group by period, ${keyNames.join(", ")})
    select coalesce(json_agg(json_build_object(
        'period', to_char(period, 'YYYY-MM-DD'), 'referenceSource', reference_source, 'sourceIdentifier', source_identifier,
        'courier', courier, 'courierProfile', courier_profile_id, 'created', created, 'replaced', replaced,
        'cancelled', cancelled, 'refused', refused, 'delivered', delivered, 'returned', returned,
        'validations', json_build_object('ok', ok, 'warning', warning, 'error', error), 'cod', cod)
      order by period, ${keyNames.join(", ")}), '[]')::text as items
    from i
    where created + replaced + cancelled + refused + delivered + returned + ok + warning + error > 0
      or json_array_length(cod) > 0`;
}

type Row = {
  period: string;
  reference_source: string | null;
  source_identifier: string | null;
  courier: string | null;
  courier_profile_id: string | null;
  currency: string;
  created: number;
  replaced: number;
  cancelled: number;
  refused: number;
  delivered: number;
  returned: number;
  ok: number;
  warning: number;
  error: number;
  cod: string | null;
};

export const filterParams = (params: StatisticsParams) => [
  params.referenceSource ?? null,
  params.sourceIdentifier ?? null,
  params.courier?.length ? `{${params.courier.join(",")}}` : null,
  params.courierProfile?.length ? uuidArray(params.courierProfile) : null,
];

export const emptyFigures = (): Figures => ({
  created: 0,
  replaced: 0,
  cancelled: 0,
  refused: 0,
  delivered: 0,
  returned: 0,
  validations: { ok: 0, warning: 0, error: 0 },
  cod: [],
});

/** Adds a row's figures: counters from the row without currency, the COD amount from a currency's row. */
function addRow(
  figures: Figures,
  row: Omit<Row, "period" | "reference_source" | "source_identifier" | "courier" | "courier_profile_id">,
) {
  if (row.currency === "") {
    figures.created += row.created;
    figures.replaced += row.replaced;
    figures.cancelled += row.cancelled;
    figures.refused += row.refused;
    figures.delivered += row.delivered;
    figures.returned += row.returned;
    figures.validations.ok += row.ok;
    figures.validations.warning += row.warning;
    figures.validations.error += row.error;
  } else {
    const amount = Number(row.cod ?? 0);
    const entry = figures.cod.find((c) => c.currency === row.currency);
    if (entry) entry.amount = Math.round((entry.amount + amount) * 100) / 100;
    else figures.cod.push({ currency: row.currency, amount });
  }
}

const isEmpty = (f: Figures) =>
  f.created + f.replaced + f.cancelled + f.refused + f.delivered + f.returned === 0 &&
  f.validations.ok + f.validations.warning + f.validations.error === 0 &&
  f.cod.every((c) => c.amount === 0);

/** The parameters, errors naming the parameter (`by`, not `by[0]`) as the query string's parser does. */
function parseParams(raw: unknown): StatisticsParams {
  const result = statisticsQuery.safeParse(raw);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    field: String(issue.path[0] ?? "query"),
    message: issue.message,
  }));
  throw new AppError("bad_request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), { errors });
}

/**
 * `GET /statistics`: the account's figures per period and per the keys of `by`, summed from the daily rollups
 * (statistics_daily and the deltas not yet compacted). Only combinations with something to count appear.
 */
export async function queryStatistics(
  db: Executor,
  accountId: string,
  raw: unknown,
  now = new Date(),
): Promise<StatisticsView> {
  const params = parseParams(raw);
  const [account] = await queryRows<{ timeZone: string }>(
    db,
    `select time_zone as "timeZone" from accounts where id = $1::uuid`,
    [accountId],
  );
  if (!account) throw notFound("Account");
  const { from, to } = resolvePeriod(params, account.timeZone, now);
  const by = params.by?.length ? [...new Set(params.by)] : (["sourcePair"] as Dimension[]);
  const [row] = await queryRows<{ items: string }>(db, statisticsSql(params.groupBy, by), [
    accountId,
    from,
    to,
    ...filterParams(params),
  ]);
  const items = JSON.parse(row!.items) as StatisticsItem[];
  return { from, to, groupBy: params.groupBy, timeZone: account.timeZone, items };
}

export type AccountStatistics = {
  accountId: string;
  accountName: string;
  timeZone: string;
  /** The account's own days counted: the last `days`, ending on its today. */
  from: string;
  to: string;
  figures: Figures;
};

/** The calendar day is first over at UTC+14 (Kiritimati) and last at UTC-12: every account's today lies between. */
const EARLIEST_ZONE = "Etc/GMT+12";
const LATEST_ZONE = "Etc/GMT-14";

/**
 * Staff: every account's figures over its own last `days` days, today included, each counted in the account's time
 * zone (as the account's own page and `GET /statistics` count them), the accounts that refuse or fail validation
 * most first. One period in UTC days for all would hide an account's today until UTC reached it: between 23:00 and
 * midnight UTC, Prague's refusals of the new day were missing from the staff table (e2e statistics.spec.ts).
 */
export async function statisticsByAccount(
  db: Executor,
  actor: Actor,
  { days }: { days: number },
  now = new Date(),
): Promise<{ days: number; accounts: AccountStatistics[] }> {
  if (!actor.isStaff) throw new AppError("forbidden", "Only staff can see every account.");
  if (!Number.isInteger(days) || days < 1 || days > MAX_SPAN_DAYS + 1)
    throw badField("days", `must be a whole number from 1 to ${MAX_SPAN_DAYS + 1}`);
  // The days any account may count (its index range), then each account's own window.
  const to = dayIn(LATEST_ZONE, now);
  const from = addDays(dayIn(EARLIEST_ZONE, now), -(days - 1));
  const rows = await queryRows<Row & { account_id: string; name: string; time_zone: string; from: string; to: string }>(
    db,
    `with f as (${figuresOf("statistics_daily")} union all ${figuresOf("statistics_deltas")}),
     t as (select id, name, time_zone, ($8::timestamptz at time zone time_zone)::date as today from accounts),
     a as (select id, name, time_zone, today - ($9::int - 1) as first, today from t)
     select f.account_id, a.name, a.time_zone, a.first::text as "from", a.today::text as "to", currency, ${SUMS}
     from f join a on a.id = f.account_id
     where f.day between a.first and a.today
     group by f.account_id, a.name, a.time_zone, a.first, a.today, currency`,
    [null, from, to, null, null, null, null, now.toISOString(), days],
  );
  const byAccount = new Map<string, AccountStatistics>();
  for (const row of rows) {
    let entry = byAccount.get(row.account_id);
    if (!entry) {
      entry = {
        accountId: row.account_id,
        accountName: row.name,
        timeZone: row.time_zone,
        from: row.from,
        to: row.to,
        figures: emptyFigures(),
      };
      byAccount.set(row.account_id, entry);
    }
    addRow(entry.figures, row);
  }
  const failures = (f: Figures) => f.refused + f.validations.error;
  const accounts = [...byAccount.values()]
    .filter((e) => !isEmpty(e.figures))
    .map((e) => ({
      ...e,
      figures: {
        ...e.figures,
        cod: e.figures.cod.filter((c) => c.amount !== 0).sort((a, b) => (a.currency < b.currency ? -1 : 1)),
      },
    }))
    .sort(
      (a, b) =>
        failures(b.figures) - failures(a.figures) ||
        b.figures.created - a.figures.created ||
        a.accountName.localeCompare(b.accountName),
    );
  return { days, accounts };
}
