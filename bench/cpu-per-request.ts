/**
 * `npx tsx bench/cpu-per-request.ts [--servers=baseline,app] [--before=DIR] [--duration=S] [--rounds=N] [--orders=N] [--only=create,get,list,batch]`
 *
 * The before/after figure for one change to the services: CPU ms per request (from /proc) of the server process
 * and of the PostgreSQL backends, for create and get at 16 connections, list at 1. The baseline server needs no
 * build, so a change is measured in a minute or two; `app` serves the last `next build` (.next). Prints one line
 * per run and the medians; a fresh database is created and dropped. `--before=DIR` also serves the same servers
 * from another copy of the project (e.g. `git archive <commit> | tar -x -C DIR`, with DIR/node_modules a link to
 * ours, hard-linked if the app is built there) on the same database, and alternates the two round by round, so both see the same machine load. CPU time, unlike req/s, hardly moves with
 * the machine's other load, which is why it is the figure compared.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { Request } from "autocannon";
import { createDatabase, dropDatabase } from "./lib/database";
import { load, median } from "./lib/load";
import { cpuMs, startApp, startBaseline, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const SERVERS = (option("servers") ?? "baseline").split(",");
const ONLY = new Set((option("only") ?? "create,get").split(","));
const DURATION = Number(option("duration") ?? 8);
const ROUNDS = Number(option("rounds") ?? 2);
const ORDERS = Number(option("orders") ?? 20_000);
const BEFORE = option("before");
const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const TMP = path.resolve("bench/.tmp");

let sequence = 0;
const tag = Date.now().toString(36);
const order = (reference: string) => ({
  ReferenceNumber: reference,
  Recipient: { Name: "Jana Nováková", Street: "Dlouhá 12", City: "Praha", Zip: "110 00", Country: "CZ" },
  Parcels: [{ Weight: 1.5 }],
});

async function main(): Promise<void> {
  const database = await createDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = AUTH_SECRET;
  const servers: Server[] = [];
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const seed = await import("./lib/seed");
    const partner = await seed.createBenchPartner("cpu");
    await seed.seedOrders(sql, partner, 10, ORDERS);
    const fixtures = await seed.listFixtures(sql, partner.accountId, 200);
    const env = { databaseUrl: database.url, authSecret: AUTH_SECRET };
    for (const name of SERVERS) {
      if (name === "app" && !existsSync(".next/BUILD_ID")) throw new Error("no build: run `npx next build` first");
      servers.push(name === "app" ? await startApp(env, TMP, path.resolve(".")) : await startBaseline(env, TMP));
    }
    for (const name of BEFORE ? SERVERS : []) {
      const dir = path.resolve(BEFORE!);
      if (name === "app" && !existsSync(path.join(dir, ".next/BUILD_ID"))) throw new Error(`no build in ${dir}`);
      servers.push(
        name === "app"
          ? await startApp(env, TMP, dir, "app-before")
          : await startBaseline(env, TMP, dir, "baseline-before"),
      );
    }
    const backends = async () =>
      (
        await sql<
          { pid: number }[]
        >`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
      ).map((r) => r.pid);
    const scenarios: { name: string; connections: number; requests: Request[]; check: (b: string) => boolean }[] = [];
    if (ONLY.has("create"))
      scenarios.push({
        name: "create",
        connections: 16,
        check: (b) => b.includes('"failed":[]'),
        requests: [
          {
            method: "POST",
            path: "/api/v2/couriers/sandbox/shipping-orders",
            headers: { "content-type": "application/svc.shipping-order+json", "x-api-key": partner.key },
            setupRequest: (r) => ({ ...r, body: JSON.stringify(order(`CPU-${tag}-${++sequence}`)) }),
          },
        ],
      });
    const rotating = (paths: string[]): Request[] => {
      let i = 0;
      return [
        {
          method: "GET",
          headers: { "x-api-key": partner.key },
          setupRequest: (r) => ({ ...r, path: paths[i++ % paths.length]! }),
        },
      ];
    };
    if (ONLY.has("get"))
      scenarios.push({
        name: "get",
        connections: 16,
        check: (b) => b.includes('"id"'),
        requests: rotating(fixtures.ids.map((id) => `/api/v2/shipping-orders/${id}`)),
      });
    if (ONLY.has("list"))
      scenarios.push({
        name: "list",
        connections: 1,
        check: (b) => b.includes('"items":[{'),
        requests: rotating(["/api/v2/shipping-orders?page=1", "/api/v2/shipping-orders?courier=sandbox"]),
      });
    // Cluster-wide WAL and buffer-write counters: what a request costs PostgreSQL beyond its statements (full-page
    // images after a checkpoint, dirty buffers a backend must write itself when shared_buffers is full).
    const walStats = async () => {
      const [w] = await sql<
        { records: string; fpi: string; bytes: string; backendWrites: string; checkpoints: string }[]
      >`
        select w.wal_records as records, w.wal_fpi as fpi, w.wal_bytes as bytes,
               b.buffers_backend as "backendWrites", b.checkpoints_timed + b.checkpoints_req as checkpoints
        from pg_stat_wal w, pg_stat_bgwriter b`;
      return Object.fromEntries(Object.entries(w!).map(([k, v]) => [k, Number(v)])) as Record<string, number>;
    };
    if (option("checkpoint") !== undefined || argv.includes("--checkpoint")) {
      // The seed leaves ~1 GB of dirty pages per million orders: flush them so the first rounds do not pay for it.
      await sql`checkpoint`;
    }
    const figures = new Map<string, { server: number[]; pg: number[] }>();
    const served = new Map<string, number>();
    const measure = async (server: Server, s: (typeof scenarios)[number]) => {
      const pid = server.serverPid();
      const pgBefore = await backends();
      const cpu0 = { server: cpuMs([pid]), pg: cpuMs(pgBefore) };
      const wal0 = await walStats();
      const r = await load({ ...s, target: server.name, url: server.url, duration: DURATION });
      const wal1 = await walStats();
      const walPer = (k: string) => ((wal1[k]! - wal0[k]!) / r.requests).toFixed(2);
      served.set(server.name, (served.get(server.name) ?? 0) + r.requests);
      const pg = [...new Set([...pgBefore, ...(await backends())])];
      const serverMs = (cpuMs([pid]) - cpu0.server) / r.requests;
      const pgMs = (cpuMs(pg) - cpu0.pg) / r.requests;
      const key = `${s.name} ${server.name} c${s.connections}`;
      const f = figures.get(key) ?? { server: [], pg: [] };
      f.server.push(serverMs);
      f.pg.push(pgMs);
      figures.set(key, f);
      console.log(
        `${key.padEnd(22)} ${r.requests} requests, ${r.rps.toFixed(0)} req/s, server ${serverMs.toFixed(2)} ms/req, PostgreSQL ${pgMs.toFixed(2)} ms/req, errors ${r.errors + r.non2xx + r.bad}; per request: WAL ${walPer("records")} records, ${walPer("fpi")} full-page images, ${(Number(walPer("bytes")) / 1024).toFixed(1)} KiB, ${walPer("backendWrites")} buffers written by backends; ${wal1.checkpoints! - wal0.checkpoints!} checkpoints`,
      );
      if (r.errors + r.non2xx + r.bad > 0) throw new Error(`${key}: ${JSON.stringify(r.statusCodes)}`);
    };
    for (const s of scenarios) {
      const serving = servers.filter((server) => s.name !== "list" || server.name.startsWith("app"));
      for (const server of serving) {
        const warm = await load({ ...s, target: server.name, url: server.url, duration: 2 });
        served.set(server.name, (served.get(server.name) ?? 0) + warm.requests);
      }
      // Round by round across servers, so a change in the machine's load falls on each alike.
      for (let round = 0; round < ROUNDS; round++) for (const server of serving) await measure(server, s);
    }
    if (ONLY.has("batch")) {
      // A 500-order batch, one at a time, alternating servers: wall time, and CPU of the server and PostgreSQL.
      const batches = new Map<string, { ms: number[]; server: number[]; pg: number[] }>();
      for (let round = 0; round < ROUNDS + 1; round++) {
        for (const server of servers) {
          const body = JSON.stringify(
            Array.from({ length: 500 }, (_, j) => order(`BATCH-${tag}-${server.name}-${round}-${j}`)),
          );
          const pid = server.serverPid();
          const pgBefore = await backends();
          const cpu0 = { server: cpuMs([pid]), pg: cpuMs(pgBefore) };
          const t0 = performance.now();
          const res = await fetch(`${server.url}/api/v2/couriers/sandbox/shipping-orders`, {
            method: "POST",
            headers: { "content-type": "application/svc.shipping-orders+json", "x-api-key": partner.key },
            body,
          });
          const parsed = (await res.json()) as { items?: unknown[]; failed?: unknown[] };
          const ms = performance.now() - t0;
          const pg = [...new Set([...pgBefore, ...(await backends())])];
          if (parsed.items?.length !== 500) throw new Error(`batch on ${server.name}: HTTP ${res.status}`);
          if (round === 0) continue; // warm-up
          const f = batches.get(server.name) ?? { ms: [], server: [], pg: [] };
          f.ms.push(ms);
          f.server.push(cpuMs([pid]) - cpu0.server);
          f.pg.push(cpuMs(pg) - cpu0.pg);
          batches.set(server.name, f);
          console.log(
            `batch 500 ${server.name.padEnd(16)} ${ms.toFixed(0)} ms, server CPU ${cpuMs([pid]) - cpu0.server} ms`,
          );
        }
      }
      for (const [name, f] of batches)
        console.log(
          `  batch 500 ${name.padEnd(16)} median ${median(f.ms).toFixed(0)} ms (runs ${f.ms.map((v) => v.toFixed(0)).join(", ")}), server CPU ${median(f.server).toFixed(0)} ms, PostgreSQL CPU ${median(f.pg).toFixed(0)} ms`,
        );
    }
    console.log("\nmedians (CPU ms per request):");
    for (const [key, f] of figures)
      console.log(`  ${key.padEnd(22)} server ${median(f.server).toFixed(2)}  PostgreSQL ${median(f.pg).toFixed(2)}`);
    await Promise.all(servers.map((server) => server.stop()));
    for (const server of servers) {
      const gc = gcSummary(path.join(TMP, `${server.name}.log`), served.get(server.name) ?? 0);
      if (gc) console.log(`  ${server.name.padEnd(16)} ${gc}`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    await sql.end({ timeout: 1 });
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    await dropDatabase(database.name);
  }
}

/**
 * From a server's `--trace-gc` lines (BENCH_APP_NODE_FLAGS="--trace-gc"), over everything it served: collections
 * and pause per request, the longest pause, and the young-generation garbage per request (what scavenges freed).
 */
function gcSummary(logFile: string, requests: number): string | null {
  if (!existsSync(logFile) || requests === 0) return null;
  const events = [
    ...readFileSync(logFile, "utf8").matchAll(
      /ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)[^,]*?([\d.]+) \(([\d.]+)\) -> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ ([\d.]+) ms/g,
    ),
  ].map((m) => ({ kind: m[1]!, before: Number(m[2]), after: Number(m[4]), pause: Number(m[5]) }));
  if (events.length === 0) return null;
  const scavenges = events.filter((e) => e.kind === "Scavenge");
  const pause = events.reduce((t, e) => t + e.pause, 0);
  const freed = scavenges.reduce((t, e) => t + Math.max(0, e.before - e.after), 0);
  return `GC over ${requests} requests: ${scavenges.length} scavenges, ${events.length - scavenges.length} mark-compacts, ${(pause / requests).toFixed(3)} ms paused per request, longest pause ${Math.max(...events.map((e) => e.pause)).toFixed(1)} ms, ${((freed * 1024) / requests).toFixed(0)} KB young garbage per request`;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
