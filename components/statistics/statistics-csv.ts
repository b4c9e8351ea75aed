import { stringify } from "csv-stringify/browser/esm/sync";
import { statisticsCsvRecords } from "@/lib/statistics-csv";
import type { StatisticsView } from "@/server/services/statistics/schemas";

/** The rows the page shows, exactly as the REST API writes them: RFC 4180, a header line, CRLF. */
export const statisticsCsv = (view: Pick<StatisticsView, "items">): string =>
  stringify(statisticsCsvRecords(view), { record_delimiter: "windows" });

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
