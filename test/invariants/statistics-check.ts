/**
 * The statistics invariant's comparison, apart from the checker so a unit test can hold it to a known history: the
 * figures the triggers kept (the compacted days plus the deltas not folded in yet) against a recount of the records
 * (`statistics_from_records`, the definition the rebuild uses: `cod` only of the orders still live). A key missing
 * on one side counts as zeros there, so a COD row that a removal brought back to 0 agrees with no row at all.
 */

const FIGURES = [
  "created",
  "replaced",
  "cancelled",
  "refused",
  "delivered",
  "returned",
  "validations_ok",
  "validations_warning",
  "validations_error",
  "cod",
] as const;
const KEYS = "account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency";

/** `$1`: the accounts (a uuid[] literal). One row per key whose kept figures differ from the recount. */
export const STATISTICS_DISAGREEMENTS = `
  with sides as (
    select ${KEYS}, ${FIGURES.map((f) => `${f} as kept_${f}, 0 as counted_${f}`).join(", ")}
    from statistics_daily where account_id = any($1::uuid[])
    union all
    select ${KEYS}, ${FIGURES.map((f) => `${f}, 0`).join(", ")}
    from statistics_deltas where account_id = any($1::uuid[])
    union all
    select r.account_id, r.day, r.reference_source, r.source_identifier, r.courier, r.courier_profile_id, r.currency,
      ${FIGURES.map((f) => `0, r.${f}`).join(", ")}
    from unnest($1::uuid[]) as a(id) cross join lateral statistics_from_records(a.id) r)
  select account_id::text as account_id, day::text as day, reference_source, source_identifier, courier, currency,
    ${FIGURES.map((f) => `sum(kept_${f})::text as kept_${f}, sum(counted_${f})::text as counted_${f}`).join(",\n    ")}
  from sides
  group by ${KEYS}
  having ${FIGURES.map((f) => `sum(kept_${f}) <> sum(counted_${f})`).join(" or ")}
  order by 1, 2, 3, 4, 5, 6`;

export type StatisticsDisagreement = Record<string, string>;

/** One line per disagreeing key: where, and each figure that differs as kept → counted. */
export function describeDisagreement(row: StatisticsDisagreement): string {
  const differing = FIGURES.filter((f) => Number(row[`kept_${f}`]) !== Number(row[`counted_${f}`])).map(
    (f) => `${f} kept ${row[`kept_${f}`]}, counted ${row[`counted_${f}`]}`,
  );
  const currency = row.currency ? ` ${row.currency}` : "";
  return `account ${row.account_id} ${row.day} ${row.reference_source}/${row.source_identifier} ${row.courier}${currency}: ${differing.join("; ")}`;
}
