/**
 * Splits requests into as few batches as `size` allows such that no batch holds one reference twice (PPL's
 * `referenceId` is unique within a batch; one request may carry one ReferenceNumber under two source pairs). The
 * least number of batches is the larger of ⌈n / size⌉ and the most times one reference occurs: requests are listed
 * reference by reference and dealt round-robin over that many batches, so the copies of a reference land in distinct
 * batches and no batch exceeds `size`. Without repeats the batches are the plain consecutive slices. Each batch lists
 * the indexes of its requests in the input, in input order.
 */
export function uniqueReferenceBatches(references: readonly string[], size: number): number[][] {
  const max = Math.max(1, size);
  const groups = new Map<string, number[]>();
  references.forEach((reference, index) => groups.set(reference, [...(groups.get(reference) ?? []), index]));
  const repeats = Math.max(0, ...[...groups.values()].map((g) => g.length));
  if (repeats <= 1) {
    const slices: number[][] = [];
    for (let i = 0; i < references.length; i += max) slices.push(references.slice(i, i + max).map((_, j) => i + j));
    return slices;
  }
  const count = Math.max(Math.ceil(references.length / max), repeats);
  const batches: number[][] = Array.from({ length: count }, () => []);
  let next = 0;
  for (const group of groups.values())
    for (const index of group) {
      batches[next % count]!.push(index);
      next += 1;
    }
  return batches.filter((b) => b.length > 0).map((b) => b.toSorted((x, y) => x - y));
}
