import type { StatisticsView } from "@/server/services/statistics/schemas";

/** The columns of `GET /statistics` as CSV, before one `cod<CURRENCY>` column per currency that appears. */
export const CSV_COLUMNS = [
  "period",
  "referenceSource",
  "sourceIdentifier",
  "courier",
  "courierProfile",
  "created",
  "replaced",
  "cancelled",
  "refused",
  "delivered",
  "returned",
  "validationsOk",
  "validationsWarning",
  "validationsError",
] as const;

/**
 * The CSV records of a statistics answer, the header first: one line per item, the keys not grouped by empty, COD
 * amounts with two decimals (empty where the item has none). The REST route and the dashboard's download both
 * stringify these, so the two files are the same byte for byte.
 */
export function statisticsCsvRecords(view: Pick<StatisticsView, "items">): (string | number)[][] {
  const currencies = [...new Set(view.items.flatMap((i) => i.cod.map((c) => c.currency)))].sort();
  const rows = view.items.map((i) => [
    i.period,
    i.referenceSource ?? "",
    i.sourceIdentifier ?? "",
    i.courier ?? "",
    i.courierProfile ?? "",
    i.created,
    i.replaced,
    i.cancelled,
    i.refused,
    i.delivered,
    i.returned,
    i.validations.ok,
    i.validations.warning,
    i.validations.error,
    ...currencies.map((c) => i.cod.find((x) => x.currency === c)?.amount.toFixed(2) ?? ""),
  ]);
  // A cell starting with = + - @ would be a formula to a spreadsheet: source names are the partner's free text.
  const safe = rows.map((row) =>
    row.map((cell) => (typeof cell === "string" && /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)),
  );
  return [[...CSV_COLUMNS, ...currencies.map((c) => `cod${c}`)], ...safe];
}
