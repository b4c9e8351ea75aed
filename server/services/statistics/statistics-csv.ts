import { stringify } from "csv-stringify/sync";
import type { StatisticsView } from "./schemas";

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
 * The rows of a statistics answer as CSV (RFC 4180, a header line, CRLF): one line per item, the keys not grouped
 * by empty, and one `cod<CURRENCY>` column per currency that appears (empty where the item has none).
 */
export function statisticsCsv(view: StatisticsView): string {
  const currencies = [...new Set(view.items.flatMap((i) => i.cod.map((c) => c.currency)))].sort();
  const header = [...CSV_COLUMNS, ...currencies.map((c) => `cod${c}`)];
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
    ...currencies.map((c) => {
      const amount = i.cod.find((x) => x.currency === c)?.amount;
      return amount === undefined ? "" : amount.toFixed(2);
    }),
  ]);
  // A cell starting with = + - @ would be a formula to a spreadsheet: source names are the partner's free text.
  const safe = rows.map((row) =>
    row.map((cell) => (typeof cell === "string" && /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)),
  );
  return stringify([header, ...safe], { record_delimiter: "windows" });
}
