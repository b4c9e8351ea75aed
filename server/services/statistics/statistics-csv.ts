import { stringify } from "csv-stringify/sync";
import { statisticsCsvRecords } from "@/lib/statistics-csv";
import type { StatisticsView } from "./schemas";

/** A statistics answer as CSV (RFC 4180, a header line, CRLF); see `statisticsCsvRecords`. */
export const statisticsCsv = (view: StatisticsView): string =>
  stringify(statisticsCsvRecords(view), { record_delimiter: "windows" });
