/**
 * In-process cost of what every key-protected request does before its handler: `verifyApiKey` (hash +
 * one indexed lookup) and `takeTokens` (the rate-limit bucket: one upsert, i.e. a commit), N sequential
 * calls each, against N `select 1` round trips for reference.
 */
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { hashApiKey } from "@/server/auth/api-key-secret";
import { verifyApiKey } from "@/server/services/api-keys/verify-api-key";
import { takeTokens } from "@/server/services/rate-limits/take-tokens";
import { median, percentile } from "./load";

export type Timing = { mean: number; p50: number; p99: number };
export type VerifyCost = { calls: number; verify: Timing; rateLimit: Timing; selectOne: Timing; hashOnly: Timing };

async function time(n: number, fn: () => Promise<unknown> | unknown): Promise<Timing> {
  for (let i = 0; i < Math.min(200, n); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { mean: samples.reduce((s, v) => s + v, 0) / n, p50: median(samples), p99: percentile(samples, 99) };
}

export async function verifyCost(key: string, calls: number): Promise<VerifyCost> {
  const db = await getDb();
  if (!(await verifyApiKey(db, key))) throw new Error("bench key does not verify");
  return {
    calls,
    verify: await time(calls, () => verifyApiKey(db, key)),
    rateLimit: await time(calls, () => takeTokens(db, "bench:verify-cost", 100_000)),
    selectOne: await time(calls, () => db.execute(sql`select 1`)),
    hashOnly: await time(calls, () => hashApiKey(key)),
  };
}
