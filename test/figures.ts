/** Running figures of one suite (fuzz, faults, model), printed once at its end for the CI log. */
export type Figures = { cases: number; fiveXx: number; statuses?: Record<number, number> };

export const newFigures = (): Figures => ({ cases: 0, fiveXx: 0, statuses: {} });

export function countCase(figures: Figures, response: Response): void {
  figures.cases += 1;
  if (response.status >= 500) figures.fiveXx += 1;
  if (figures.statuses) figures.statuses[response.status] = (figures.statuses[response.status] ?? 0) + 1;
}

/** One line for the CI log. */
export function printFigures(
  suite: string,
  figures: Figures & { ordersLost?: number; intended503?: number; details?: string[] },
): void {
  const parts = [`cases=${figures.cases}`, `5xx=${figures.fiveXx}`];
  if (figures.intended503 !== undefined) parts.push(`intended503=${figures.intended503}`);
  parts.push(`ordersLost=${figures.ordersLost ?? 0}`);
  if (figures.statuses) parts.push(`statuses=${JSON.stringify(figures.statuses)}`);
  parts.push(...(figures.details ?? []));
  console.log(`[figures] ${suite}: ${parts.join(" ")}`);
}
