import { stringify } from "csv-stringify/browser/esm/sync";
import type { StatisticsView } from "@/server/services/statistics/schemas";

/** The REST API's CSV columns (`GET /statistics` with `Accept: text/csv`), then one `cod<CURRENCY>` per currency. */
const COLUMNS = [
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
];

/** The rows the page shows, as the REST API writes them: RFC 4180, a header line, CRLF. */
export function statisticsCsv(view: Pick<StatisticsView, "items">): string {
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
  return stringify([[...COLUMNS, ...currencies.map((c) => `cod${c}`)], ...safe], { record_delimiter: "windows" });
}

/** Saves `text` as a file through a Blob URL, as a link with `download` would. */
export function downloadText(text: string, fileName: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
