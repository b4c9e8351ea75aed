/** The last `count` UTC days up to and including the one `now` falls on, oldest first, as `yyyy-MM-dd`. */
export function lastDays(count: number, now: Date): string[] {
  return Array.from({ length: count }, (_, i) =>
    new Date(now.getTime() - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
