import type { StatisticsItem } from "@/server/services/statistics/schemas";
import type { Dimension } from "./statistics-params";

/** Colours of the series, in order; each at least 3:1 against white (WCAG's contrast for graphics). */
const PALETTE = [
  "#2563eb",
  "#7c3aed",
  "#0d9488",
  "#c2410c",
  "#db2777",
  "#4d7c0f",
  "#0369a1",
  "#9333ea",
  "#b91c1c",
  "#475569",
  "#a16207",
  "#4f46e5",
];

/** How the page names couriers and profiles (the items carry their ids). */
export type Names = { couriers: ReadonlyMap<string, string>; profiles: ReadonlyMap<string, string> };

/** One value of the chosen breakdown: a source pair, a courier or a profile; `id` is safe as a chart data key. */
export type Series = { key: string; id: string; label: string; color: string };

export function keyOf(item: StatisticsItem, by: Dimension): string {
  switch (by) {
    case "sourcePair":
      return JSON.stringify([item.referenceSource, item.sourceIdentifier]);
    case "courier":
      return item.courier ?? "";
    case "courierProfile":
      return item.courierProfile ?? "";
  }
}

export function labelOf(item: StatisticsItem, by: Dimension, names: Names): string {
  switch (by) {
    case "sourcePair":
      return `${item.referenceSource ?? "—"} / ${item.sourceIdentifier ?? "—"}`;
    case "courier":
      return item.courier ? (names.couriers.get(item.courier) ?? item.courier) : "No courier";
    case "courierProfile":
      return item.courierProfile
        ? (names.profiles.get(item.courierProfile) ?? `Deleted profile ${item.courierProfile.slice(0, 8)}`)
        : "No profile";
  }
}

/** The breakdown's values that appear in the items, by name, each with its colour. */
export function seriesOf(items: StatisticsItem[], by: Dimension, names: Names): Series[] {
  const labels = new Map<string, string>();
  for (const item of items) labels.set(keyOf(item, by), labelOf(item, by, names));
  return [...labels]
    .sort(([, a], [, b]) => a.localeCompare(b, "en"))
    .map(([key, label], index) => ({ key, id: `s${index}`, label, color: PALETTE[index % PALETTE.length]! }));
}
