/**
 * The SQL the list service really runs, captured with a drizzle logger while calling
 * `listShippingOrders` in-process with the same query parsing as the route, then each statement
 * re-run under EXPLAIN (ANALYZE, BUFFERS) with its own parameters. Import after DATABASE_URL is set.
 * Each statement is explained twice: with a custom plan for its parameter values, and with the generic plan
 * PostgreSQL may switch a named statement to.
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { parseQuery } from "@/server/http/query";
import {
  LIST_ARRAY_PARAMS,
  listShippingOrders,
  listShippingOrdersQuery,
} from "@/server/services/shipping-orders/list-shipping-orders";
import { percentile } from "./load";

export type ExplainedQuery = {
  sql: string;
  params: unknown[];
  plan: string[];
  executionMs: number;
  indexes: string[];
  seqScans: string[];
  genericPlan: string[];
  genericMs: number;
  genericIndexes: string[];
};
export type ExplainedFilter = {
  name: string;
  query: string;
  statements: ExplainedQuery[];
  serviceMs: number;
  service: { calls: number; p50: number; p99: number };
};

const executionMs = (plan: string[]) => Number(/Execution Time: ([\d.]+) ms/.exec(plan.join("\n"))?.[1] ?? NaN);
const matches = (plan: string[], re: RegExp) => [
  ...new Set(plan.flatMap((l) => [...l.matchAll(re)].map((m) => m[1]!))),
];

/**
 * For each filter: the statements of one list call (its first query string) under EXPLAIN, and the
 * in-process latency of `calls` sequential service calls rotating through all its query strings.
 */
/** EXPLAIN ANALYZE of the generic plan: the statement prepared with its described parameter types, run with the same values. */
async function genericExplain(client: postgres.Sql, sql: string, params: unknown[]): Promise<string[]> {
  const { types } = await client.unsafe(sql, params as never[]).describe();
  const [names] = await client<
    { names: string[] }[]
  >`select array_agg(format_type(t, null) order by i) as names from unnest(${types}::oid[]) with ordinality as u(t, i)`;
  const signature = types.length ? `(${names!.names.join(", ")})` : "";
  // EXECUTE's arguments cannot be bind parameters (a utility statement's are never typed): literals.
  const literal = (v: unknown) =>
    v === null || v === undefined
      ? "null"
      : typeof v === "number" || typeof v === "boolean"
        ? String(v)
        : `'${String(v instanceof Date ? v.toISOString() : v).replaceAll("'", "''")}'`;
  const placeholders = params.map(literal).join(", ");
  await client.unsafe(`prepare bench_generic${signature} as ${sql}`);
  try {
    await client`set plan_cache_mode = force_generic_plan`;
    const rows = await client.unsafe(
      `explain (analyze, buffers) execute bench_generic${placeholders ? `(${placeholders})` : ""}`,
    );
    return rows.map((r) => String((r as Record<string, unknown>)["QUERY PLAN"]));
  } finally {
    await client`reset plan_cache_mode`;
    await client`deallocate bench_generic`;
  }
}

export async function explainList(
  databaseUrl: string,
  accountId: string,
  filters: { name: string; queries: string[] }[],
  calls: number,
): Promise<ExplainedFilter[]> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let captured: { sql: string; params: unknown[] }[] = [];
  const db = drizzle({
    client,
    schema,
    logger: { logQuery: (sql, params) => void captured.push({ sql, params }) },
  }) as unknown as Db;
  const { getDb } = await import("@/db/client");
  const appDb = await getDb();
  const out: ExplainedFilter[] = [];
  const parsed = (query: string) => {
    const url = new URL(`http://bench.local/api/v2/shipping-orders${query}`);
    return { q: parseQuery(listShippingOrdersQuery, url, LIST_ARRAY_PARAMS), origin: url.origin };
  };
  try {
    for (const { name, queries } of filters) {
      const samples: number[] = [];
      for (let i = 0; i < calls; i++) {
        const { q, origin } = parsed(queries[i % queries.length]!);
        const t0 = performance.now();
        await listShippingOrders(appDb, accountId, q, origin);
        if (i >= Math.min(10, calls / 2)) samples.push(performance.now() - t0);
      }
      samples.sort((a, b) => a - b);
      const service = { calls: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
      const query = queries[0]!;
      const { q, origin } = parsed(query);
      await listShippingOrders(db, accountId, q, origin); // warm
      captured = [];
      const t0 = performance.now();
      await listShippingOrders(db, accountId, q, origin);
      const serviceMs = performance.now() - t0;
      const statements: ExplainedQuery[] = [];
      for (const c of captured) {
        const lines = (rows: Record<string, unknown>[]) => rows.map((r) => String(r["QUERY PLAN"]));
        const plan = lines(await client.unsafe(`explain (analyze, buffers) ${c.sql}`, c.params as never[]));
        // The app names its statements (db/client.ts), and PostgreSQL may then switch to a generic plan after
        // five runs: check that plan too (a prepared statement, executed with the same values).
        const genericPlan = await genericExplain(client, c.sql, c.params).catch((error: unknown) => [
          `(not explained: ${String(error)})`,
        ]);
        statements.push({
          ...c,
          plan,
          executionMs: executionMs(plan),
          indexes: matches(plan, /(?:Index (?:Only )?Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g),
          seqScans: matches(plan, /Seq Scan on (\S+)/g),
          genericPlan,
          genericMs: executionMs(genericPlan),
          genericIndexes: matches(
            genericPlan,
            /(?:Index (?:Only )?Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g,
          ),
        });
      }
      out.push({ name, query, statements, serviceMs, service });
    }
  } finally {
    await client.end();
  }
  return out;
}
