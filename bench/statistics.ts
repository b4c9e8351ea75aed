/**
 * `npx tsx bench/statistics.ts [--orders=1000000] [--duration=10] [--keep-db]` (after `npx next build`)
 *
 * The statistics target of issue 18: a 90-day `GET /api/v2/statistics` over an account with a million orders costs
 * at most 50 ms of server time. On a fresh database: one account with `orders` orders over the past 365 days (as
 * the main bench seeds them), a validation record per order (5 % errors), 2 % refused attempts and COD on a third of
 * the orders; the rollups backfilled as migration 0012 does (timed); a minute of not yet compacted deltas; then the
 * production build (`next start`) answers each question at one connection for `duration` seconds: latency, and CPU
 * per request of the server and of PostgreSQL. Ends with EXPLAIN (ANALYZE, BUFFERS) of the statement, and the time of
 * a rebuild (what a time-zone change costs such an account). Prints a Markdown section for bench/results.md.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";
import { load } from "./lib/load";
import { cpuMs, startApp } from "./lib/servers";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const ORDERS = Number(option("orders") ?? 1_000_000);
const DURATION = Number(option("duration") ?? 10);
const KEEP = argv.includes("--keep-db");
const log = (m: string) => console.error(`[statistics ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function main(): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) throw new Error("no production build: run `npx next build` first");
  const database = await createDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789-bench-auth-secret";
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const lines: string[] = [];
  const out = (line = "") => {
    lines.push(line);
    console.log(line);
  };
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const seed = await import("./lib/seed");
    const partner = await seed.createBenchPartner("statistics");
    log(`seeding ${ORDERS.toLocaleString("en")} orders in one account…`);
    const seeded = await seed.seedOrders(sql, partner, 1, ORDERS);
    log(`orders seeded in ${seeded.seconds.toFixed(1)} s; validations, refusals, COD…`);
    const t0 = performance.now();
    const reserved = await sql.reserve();
    try {
      // Triggers off, as the seed's own load: the rollups are backfilled below, as the migration does.
      await reserved`set session_replication_role = replica`;
      await reserved.unsafe(
        `
        update shipping_orders set cod_price = 100 + (hashtext(id::text) & 1023), cod_currency = case when hashtext(id::text) & 1 = 0 then 'CZK' else 'EUR' end
        where account_id = $1 and hashtext(reference_number) % 3 = 0`,
        [partner.accountId],
      );
      await reserved.unsafe(
        `
        insert into validation_results (account_id, operation, courier, courier_profile_id, reference_number, reference_source,
          source_identifier, status, messages, request_body, created_at)
        select account_id, 'create', courier, courier_profile_id, reference_number, reference_source, source_identifier,
          (case when hashtext(reference_number) % 20 = 0 then 'ERROR' when hashtext(reference_number) % 20 = 1 then 'WARNING' else 'OK' end)::validation_status,
          '[]'::jsonb, '{}'::json, created_at
        from shipping_orders where account_id = $1`,
        [partner.accountId],
      );
      await reserved.unsafe(
        `
        insert into refused_attempts (account_id, courier, courier_profile_id, reference_number, reference_source,
          source_identifier, code, message, request, created_at)
        select account_id, courier, courier_profile_id, reference_number, reference_source, source_identifier,
          'COURIER_REJECTED', 'refused', '{}'::json, created_at
        from shipping_orders where account_id = $1 and hashtext(reference_number) % 50 = 0`,
        [partner.accountId],
      );
      await reserved`set session_replication_role = origin`;
      await reserved`vacuum (analyze) validation_results`;
      await reserved`vacuum (analyze) refused_attempts`;
    } finally {
      reserved.release();
    }
    log(`records added in ${((performance.now() - t0) / 1000).toFixed(1)} s; backfilling the rollups…`);
    const t1 = performance.now();
    await sql`insert into statistics_daily select * from statistics_from_records(${partner.accountId}::uuid)`;
    const backfillSeconds = (performance.now() - t1) / 1000;
    // A minute of writes the worker has not compacted yet: copies of recent daily rows, as the triggers append them.
    await sql`
      insert into statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency,
        created, refused, validations_ok, cod)
      select account_id, current_date - (g % 3), reference_source, source_identifier, courier, courier_profile_id, currency,
        1, 0, 1, case when currency = '' then 0 else 250 end
      from generate_series(1, 3000) g
      cross join lateral (select * from statistics_daily where account_id = ${partner.accountId}::uuid offset (g % 20) limit 1) d`;
    await sql`vacuum (analyze) statistics_daily`;
    await sql`vacuum (analyze) statistics_deltas`;
    const [sizes] = await sql<{ daily: number; deltas: number; days: number; size: string }[]>`
      select (select count(*)::int from statistics_daily) as daily, (select count(*)::int from statistics_deltas) as deltas,
        (select count(distinct day)::int from statistics_daily) as days,
        pg_size_pretty(pg_total_relation_size('statistics_daily')) as size`;
    const [counts] = await sql<{ orders: number; validations: number; refused: number }[]>`
      select (select count(*)::int from shipping_orders) as orders, (select count(*)::int from validation_results) as validations,
        (select count(*)::int from refused_attempts) as refused`;
    log(
      `backfill ${backfillSeconds.toFixed(1)} s: ${sizes!.daily} daily rows over ${sizes!.days} days; starting the app…`,
    );

    app = await startApp(
      { databaseUrl: database.url, authSecret: process.env.AUTH_SECRET },
      os.tmpdir(),
      process.cwd(),
      "app",
    );
    const serverPid = app.serverPid();
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
    const questions = [
      ["90 days by day and source pair (the default keys)", `from=${from}&to=${to}`, "application/json"],
      [
        "90 days by week, pair × courier × profile",
        `from=${from}&to=${to}&groupBy=week&by=sourcePair,courier,courierProfile`,
        "application/json",
      ],
      [
        "90 days by day, one pair, as CSV",
        `from=${from}&to=${to}&referenceSource=shoptet&sourceIdentifier=eshop-1`,
        "text/csv",
      ],
      [
        "366 days by month and profile",
        `from=${new Date(Date.now() - 366 * 86_400_000).toISOString().slice(0, 10)}&to=${to}&groupBy=month&by=courierProfile`,
        "application/json",
      ],
    ] as const;
    const pgPids = async () =>
      (
        await sql<
          { pid: number }[]
        >`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
      ).map((r) => r.pid);
    out(
      `#### Statistics over an account with ${counts!.orders.toLocaleString("en")} orders (\`npx tsx bench/statistics.ts\`, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC)`,
    );
    out();
    out(
      `PostgreSQL ${await serverVersion(sql)}; ${counts!.validations.toLocaleString("en")} validation records, ${counts!.refused.toLocaleString("en")} refused attempts, COD on a third of the orders.`,
    );
    out(
      `Backfill from the records (\`statistics_from_records\`, what migration 0012 and a rebuild run): **${backfillSeconds.toFixed(1)} s**, giving ${sizes!.daily.toLocaleString("en")} daily rows (${sizes!.size}) over ${sizes!.days} days; ${sizes!.deltas.toLocaleString("en")} delta rows not yet compacted.`,
    );
    out();
    out(
      "| question (one connection, " +
        DURATION +
        " s each) | answers | p50 ms | p99 ms | max ms | server CPU ms/req | PG CPU ms/req | rows |",
    );
    out("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const [name, query, accept] of questions) {
      const url = `${app.url}/api/v2/statistics?${query}`;
      const probe = await fetch(url, { headers: { "x-api-key": partner.key, accept } });
      const body = await probe.text();
      if (probe.status !== 200) throw new Error(`${name}: ${probe.status} ${body.slice(0, 300)}`);
      const rows =
        accept === "text/csv"
          ? body.trim().split("\n").length - 1
          : (JSON.parse(body) as { items: unknown[] }).items.length;
      // Warm-up, then the measured run.
      await load({
        name,
        target: "app",
        url,
        connections: 1,
        duration: 2,
        requests: [{ method: "GET" }],
        headers: { "x-api-key": partner.key, accept },
      });
      const pids0 = await pgPids();
      const cpu0 = { server: cpuMs([serverPid]), pg: cpuMs(pids0) };
      const r = await load({
        name,
        target: "app",
        url,
        connections: 1,
        duration: DURATION,
        requests: [{ method: "GET" }],
        headers: { "x-api-key": partner.key, accept },
      });
      const pids = [...new Set([...pids0, ...(await pgPids())])];
      const serverCpu = (cpuMs([serverPid]) - cpu0.server) / r.requests;
      const pgCpu = (cpuMs(pids) - cpu0.pg) / r.requests;
      if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      out(
        `| ${name} | ${r.requests} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(1)} | ${serverCpu.toFixed(2)} | ${pgCpu.toFixed(2)} | ${rows} |`,
      );
      log(`${name}: p50 ${r.p50.toFixed(2)} ms p99 ${r.p99.toFixed(2)} ms`);
    }
    out();
    const { statisticsSql, filterParams } = await import("@/server/services/statistics/query-statistics");
    const plan = await sql.unsafe<{ "QUERY PLAN": string }[]>(
      `explain (analyze, buffers) ${statisticsSql("day", ["sourcePair"])}`,
      [partner.accountId, from, to, ...filterParams({ groupBy: "day" })] as never[],
    );
    out("EXPLAIN (ANALYZE, BUFFERS) of the first question's statement:");
    out();
    out("```");
    for (const row of plan) out(row["QUERY PLAN"]);
    out("```");
    out();
    const { rebuildStatistics } = await import("@/server/services/statistics/maintain-statistics");
    const { getDb } = await import("@/db/client");
    const t2 = performance.now();
    await rebuildStatistics(await getDb(), partner.accountId);
    out(
      `A rebuild of the account (a time-zone change; delete and recount in one REPEATABLE READ transaction): ${((performance.now() - t2) / 1000).toFixed(1)} s.`,
    );
    void path;
  } finally {
    await app?.stop();
    await sql.end();
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    if (KEEP) log(`kept database ${database.name}`);
    else await dropDatabase(database.name);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
