import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";

/**
 * The platform's own range of shipping numbers (`sandbox_shipping_number_seq`), handed to couriers whose
 * shipper assigns the numbers (`CallContext.allocateNumbers`). Values are fetched in blocks and handed out from
 * memory (hi/lo), so a batch of 500 orders costs a handful of queries instead of one per order
 * (bench/results.md). Still unique across instances: a sequence never returns a value twice; a restart merely
 * skips the rest of its block. Kept per database handle, so numbers of one database are never used in another.
 */
const NUMBER_BLOCK = 100;
const numberPools = new WeakMap<object, { spare: string[]; refill: Promise<void> | null }>();

/** `count` numbers, fetching what is missing (at least a block) in one query; the same turn hands them out. */
export async function allocateNumbers(db: Executor, count: number): Promise<string[]> {
  if (count === 0) return [];
  let pool = numberPools.get(db);
  if (!pool) numberPools.set(db, (pool = { spare: [], refill: null }));
  while (pool.spare.length < count) {
    const p = pool;
    p.refill ??= db
      .execute(
        sql`select nextval('sandbox_shipping_number_seq')::text as n from generate_series(1, ${Math.max(NUMBER_BLOCK, count - p.spare.length)})`,
      )
      .then((result) => void p.spare.push(...rowsOf<{ n: string }>(result).map((r) => r.n)))
      .finally(() => (p.refill = null));
    await p.refill;
  }
  return pool.spare.splice(0, count);
}
