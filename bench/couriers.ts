/**
 * `npx tsx bench/couriers.ts [--rounds=5] [--quick] [--tracked=5000] [--no-write] [--keep-db]` (after `npx next build`)
 *
 * Issue 17, item 9: the real couriers against their fakes answering in 150 ms per call. On a fresh database, with the
 * fake Packeta and the fake PPL running in this process (`delayMs: 150`), the production build (`next start`, a copy
 * of `.next` outside the checkout, as bench/run.ts serves it) with COURIER_PACKETA_URL / COURIER_PPL_URL pointing at
 * them and COURIER_TIMEOUT_MS=30000:
 *
 * 1. Batches: per courier, one warm-up batch and then `rounds` batches of 500 valid orders (`POST
 *    /api/v2/couriers/{packeta|ppl}/shipping-orders`, one request each): wall time from the request to the last
 *    byte of the answer, every order registered (500 items, none failed), the calls the fake received and the most it
 *    had in flight, and CPU of the app server and of the database's PostgreSQL backends per batch (/proc).
 * 2. Tracking: `tracked` PPL orders (made through the API, so the fake knows their shipments; half moved to
 *    `InTransport`, a quarter to `Delivered`) made due in SQL, then ONE worker process (this script forked with
 *    `--tracking-child`, so the fake's own CPU stays out of its figure) runs what the worker's per-courier job runs:
 *    `advanceDueTracking(db, { courier: "ppl", batchSize: 500 })` until it returns 0. Numbers per second, the
 *    worker's CPU (`process.cpuUsage()`) and PostgreSQL's per number, and the tracking calls the fake got.
 *
 * Prints a Markdown section and writes it into bench/results.md as section 5e (before "### 6."), between markers
 * that a later run replaces (the hand-written text around them is kept). `--quick`: 1 round, 1,000 tracked orders,
 * nothing written. `--profile`: the worker's loop under the V8 profiler, its top functions printed (nothing written; the
 * profiler's overhead is in that run's figures). The database is dropped at the end, the fakes closed, the server
 * stopped.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { preparedBuild } from "./lib/build";
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";
import { median } from "./lib/load";
import { summariseProfiles } from "./lib/profile";
import { cpuMs, startApp, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];

const QUICK = flag("quick");
const ROUNDS = Number(option("rounds") ?? (QUICK ? 1 : 5));
const TRACKED = Number(option("tracked") ?? (QUICK ? 1000 : 5000));
const WRITE = !QUICK && !flag("no-write") && !flag("profile");
/** `--profile`: the tracking worker's loop runs under the V8 profiler (node:inspector); its top functions are printed. */
const PROFILE = flag("profile");
const PROFILE_DIR = path.join(os.tmpdir(), `sop-bench-couriers-profile-${process.pid}`);
const BATCH = 500;
const DELAY_MS = 150;
const TARGET_MS = 3000;
const COURIER_TIMEOUT_MS = "30000";
const TRACKING_BATCH = 500;

const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const PACKETA_PASSWORD = "bench0packeta0api0password000001"; // 32 characters, as Packeta's are
const PPL_CLIENT_ID = "bench-shop-client";
const PPL_CLIENT_SECRET = "bench-ppl-client-secret-0123456789";
const RESULTS = path.resolve("bench/results.md");
const APP_COPY = path.join(os.tmpdir(), `sop-bench-couriers-app-${process.pid}`);
const SECTION_HEADING =
  "### 5e. Real couriers: a 500-order batch and tracking against the fakes (issue 17, 2026-11-26)";
const FIGURES_BEGIN = "<!-- 5e: figures written by bench/couriers.ts; a later run replaces them -->";
const FIGURES_END = "<!-- /5e -->";

const log = (m: string) => console.error(`[couriers ${new Date().toISOString().slice(11, 19)}] ${m}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
const n0 = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en") : "–");
const n2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : "–");

// ---------------------------------------------------------------- the build (as bench/run.ts prepares it)

// ---------------------------------------------------------------- the app server

// ---------------------------------------------------------------- orders

const recipient = (i: number) => ({
  Name: "Jana Nováková",
  Street: `Dlouhá ${(i % 500) + 1}`,
  City: "Praha",
  Zip: "110 00",
  Country: "CZ",
  Email: "jana@example.com",
  Phone: "+420777123456",
});

/** A valid order for the courier (test/partner.ts's order; Packeta's needs a pickup point and a value). */
const orderFor = (courier: Courier, reference: string, i: number): Record<string, unknown> => ({
  ReferenceNumber: reference,
  Recipient: recipient(i),
  Parcels: [{ Weight: 1.5 }],
  ...(courier === "packeta" ? { PickupPoint: "4321", InsurancePrice: 100 } : {}),
});

type Courier = "packeta" | "ppl";
type Round = {
  courier: Courier;
  label: string;
  ms: number;
  status: number;
  items: number;
  failed: number;
  firstFailure: string;
  calls: number;
  callsBy: Record<string, number>;
  maxInFlight: number;
  serverCpuMs: number;
  pgCpuMs: number;
};

type Fake = {
  requests: unknown[];
  state: { maxInFlight: number };
};

/** A fake's request as "operation" (Packeta) or "METHOD /path" with the batch id elided (PPL). */
const callName = (request: unknown): string => {
  const r = request as { operation?: string; method?: string; path?: string };
  if (r.operation !== undefined) return r.operation;
  return `${r.method} ${(r.path ?? "").replace(/\/shipment\/batch\/[^/]+/, "/shipment/batch/{id}")}`;
};

const countBy = (names: string[]) =>
  names.reduce<Record<string, number>>((acc, name) => ((acc[name] = (acc[name] ?? 0) + 1), acc), {});

// ---------------------------------------------------------------- the tracking worker (a child process)

type ChildResult = {
  batches: { handled: number; ms: number }[];
  ms: number;
  cpuUserMs: number;
  cpuSystemMs: number;
};
type ChildMessage = { type: "ready" } | { type: "result"; result: ChildResult } | { type: "error"; message: string };

/** This script as one worker process: waits for "go", runs the PPL tracking job until it returns 0, reports. */
async function trackingChild(): Promise<void> {
  const send = (m: ChildMessage) => process.send!(m);
  const waitFor = (type: string) =>
    new Promise<void>((resolve) => {
      const on = (m: { type?: string }) => {
        if (m.type !== type) return;
        process.off("message", on);
        resolve();
      };
      process.on("message", on);
    });
  const { getDb, closeDb } = await import("@/db/client");
  const { sql } = await import("drizzle-orm");
  const { advanceDueTracking } = await import("@/server/services/shipping-orders/advance-tracking");
  const db = await getDb();
  await db.execute(sql`select 1`);
  const go = waitFor("go");
  send({ type: "ready" });
  await go;
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const session = profileDir ? new (await import("node:inspector/promises")).Session() : null;
  try {
    if (session) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    }
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const batches: ChildResult["batches"] = [];
    for (;;) {
      const t = performance.now();
      const handled = await advanceDueTracking(db, { courier: "ppl", batchSize: TRACKING_BATCH });
      batches.push({ handled, ms: performance.now() - t });
      if (handled === 0) break;
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (session && profileDir) {
      const { profile } = await session.post("Profiler.stop");
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(path.join(profileDir, "tracking-worker.cpuprofile"), JSON.stringify(profile));
      session.disconnect();
    }
    const exit = waitFor("exit");
    send({ type: "result", result: { batches, ms, cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000 } });
    await exit;
  } catch (error) {
    send({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    await closeDb().catch(() => {});
  }
  process.exit(0);
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const build = await preparedBuild({ dir: APP_COPY, build: false, log: (m) => log(m) });
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const database = await createDatabase();
  log(`database ${database.name}; build ${build.id}; ${ROUNDS} rounds; ${TRACKED} tracked orders`);
  // db/client and server/env read the environment once, on first use: set it before importing them.
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = AUTH_SECRET;
  process.env.COURIER_TIMEOUT_MS = COURIER_TIMEOUT_MS;
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  let packeta: Awaited<ReturnType<typeof startFakePacketa>> | undefined;
  let ppl: Awaited<ReturnType<typeof startFakePpl>> | undefined;
  let app: Server | undefined;
  let worker: ChildProcess | undefined;
  const failures: string[] = [];
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    packeta = await startFakePacketa({ password: PACKETA_PASSWORD, delayMs: DELAY_MS });
    ppl = await startFakePpl({ clientId: PPL_CLIENT_ID, clientSecret: PPL_CLIENT_SECRET, delayMs: DELAY_MS });
    const courierEnv = {
      COURIER_PACKETA_URL: packeta.url,
      COURIER_PPL_URL: ppl.url,
      COURIER_TIMEOUT_MS,
    };
    Object.assign(process.env, courierEnv);
    log(`fake Packeta ${packeta.url}, fake PPL ${ppl.url}, ${DELAY_MS} ms per call`);

    // The partner, through the services: an owner and account, a Packeta and a PPL profile, a key.
    const { getDb } = await import("@/db/client");
    const { createUser } = await import("@/server/services/accounts/create-user");
    const { createApiKey } = await import("@/server/services/api-keys/create-api-key");
    const { createCourierProfile } = await import("@/server/services/courier-profiles/create-courier-profile");
    const db = await getDb();
    const { userId, accountId } = await createUser(db, {
      email: `couriers-${Date.now()}@bench.example`,
      password: "bench-password-1234",
      accountName: "Bench couriers",
    });
    const actor = { userId, isStaff: false };
    await createCourierProfile(db, actor, {
      accountId,
      courier: "packeta",
      name: "Packeta",
      isDefault: true,
      settings: { apiPassword: PACKETA_PASSWORD, sender: "bench-shop" },
    });
    await createCourierProfile(db, actor, {
      accountId,
      courier: "ppl",
      name: "PPL",
      isDefault: true,
      settings: { clientId: PPL_CLIENT_ID, clientSecret: PPL_CLIENT_SECRET },
    });
    // The highest limit the contract allows, so the rate limiter never shapes the figures.
    const { key } = await createApiKey(db, actor, { accountId, name: "bench couriers", rateLimitPerMinute: 100_000 });

    // WORKER=off (startApp's default): no tracking in the app, the worker's share is measured on its own below.
    app = await startApp(
      { databaseUrl: database.url, authSecret: AUTH_SECRET, extraEnv: courierEnv },
      os.tmpdir(),
      build.dir,
      "app-couriers",
    );
    log(`app on ${app.url} (pid ${app.child.pid}, log ${path.join(os.tmpdir(), "app-couriers.log")})`);
    const serverPid = app.serverPid();
    const pgPids = async () =>
      (
        await sql<
          { pid: number }[]
        >`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
      ).map((r) => r.pid);

    const tag = Date.now().toString(36).slice(-6);
    const fakes: Record<Courier, Fake> = { packeta, ppl };
    const send = async (courier: Courier, label: string, prefix: string): Promise<Round> => {
      const fake = fakes[courier];
      const body = JSON.stringify(
        Array.from({ length: BATCH }, (_, i) => orderFor(courier, `${prefix}-${tag}-${label}-${i}`, i)),
      );
      const calls0 = fake.requests.length;
      fake.state.maxInFlight = 0;
      const pids0 = await pgPids();
      const cpu0 = { server: cpuMs([serverPid]), pg: cpuMs(pids0) };
      const t0 = performance.now();
      const res = await fetch(`${app!.url}/api/v2/couriers/${courier}/shipping-orders`, {
        method: "POST",
        headers: { "content-type": "application/svc.shipping-orders+json", authorization: `Bearer ${key}` },
        body,
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      const pids = [...new Set([...pids0, ...(await pgPids())])];
      const serverCpuMs = cpuMs([serverPid]) - cpu0.server;
      const pgCpuMs = cpuMs(pids) - cpu0.pg;
      let items = 0;
      let failed = 0;
      let firstFailure = "";
      try {
        const parsed = JSON.parse(text) as {
          items?: unknown[];
          failed?: { referenceNumber: string; code: string; message: string }[];
        };
        items = parsed.items?.length ?? 0;
        failed = parsed.failed?.length ?? 0;
        const f = parsed.failed?.[0];
        if (f) firstFailure = `${f.referenceNumber}: ${f.code} ${f.message}`;
      } catch {
        firstFailure = text.slice(0, 300);
      }
      if (res.status !== 200 || items !== BATCH || failed !== 0)
        failures.push(
          `${courier} ${label}: HTTP ${res.status}, ${items} items, ${failed} failed ${firstFailure || text.slice(0, 300)}`,
        );
      const names = fake.requests.slice(calls0).map(callName);
      const round: Round = {
        courier,
        label,
        ms,
        status: res.status,
        items,
        failed,
        firstFailure,
        calls: names.length,
        callsBy: countBy(names),
        maxInFlight: fake.state.maxInFlight,
        serverCpuMs,
        pgCpuMs,
      };
      log(
        `${courier} ${label}: ${ms.toFixed(0)} ms, HTTP ${res.status}, ${items} items, ${failed} failed, ${round.calls} calls ${JSON.stringify(round.callsBy)}, max in flight ${round.maxInFlight}, app CPU ${serverCpuMs} ms, PG CPU ${pgCpuMs} ms`,
      );
      return round;
    };

    // ---- 1. batches of 500
    const rounds: Round[] = [];
    for (const courier of ["packeta", "ppl"] as const) {
      const prefix = courier === "packeta" ? "PK" : "PL";
      rounds.push(await send(courier, "w", prefix));
      for (let r = 1; r <= ROUNDS; r++) rounds.push(await send(courier, String(r), prefix));
    }

    // ---- 2. tracking: TRACKED PPL orders due, one worker
    const pplOrders = async () =>
      (await sql<{ n: number }[]>`select count(*)::int as n from shipping_orders where courier = 'ppl'`)[0]!.n;
    for (let extra = 1; (await pplOrders()) < TRACKED; extra++) {
      const r = await send("ppl", `t${extra}`, "PL");
      if (r.items === 0) throw new Error("PPL orders for the tracking run could not be created");
    }
    const tracked = await sql<{ id: string; shipping_number: string }[]>`
      select o.id, p.shipping_number from shipping_orders o join parcels p on p.order_id = o.id and p.position = 0
      where o.courier = 'ppl' order by o.created_at, o.id limit ${TRACKED}`;
    const ids = tracked.map((t) => t.id);
    const phases = { InTransport: 0, Delivered: 0, Order: 0 };
    tracked.forEach((t, i) => {
      const phase = i % 4 < 2 ? "InTransport" : i % 4 === 2 ? "Delivered" : "Order";
      if (phase !== "Order") ppl!.setPhase(t.shipping_number, phase);
      phases[phase] += 1;
    });
    await sql`update shipping_orders set tracking_next_at = now() - interval '1 minute' where id = any(${ids}::uuid[])`;
    await sql`update shipping_orders set tracking_next_at = now() + interval '1 day'
      where courier = 'ppl' and not (id = any(${ids}::uuid[])) and tracking_next_at is not null`;
    await sql`analyze shipping_orders`;
    const [before] = await sql<{ events: number; changes: number }[]>`
      select (select count(*)::int from tracking_events where order_id = any(${ids}::uuid[])) as events,
        (select count(*)::int from events where type = 'shipping_order.status_changed') as changes`;

    log(`tracking ${tracked.length} PPL orders with one worker process…`);
    worker = fork(path.resolve("bench/couriers.ts"), ["--tracking-child"], {
      execArgv: ["--import", "tsx"],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: database.url,
        AUTH_SECRET,
        SECRETS_KEY: process.env.SECRETS_KEY,
        // Required in production; the tracking worker's status_changed events link to it.
        PUBLIC_URL: "http://127.0.0.1:3000",
        LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
        ...(PROFILE ? { BENCH_PROFILE_DIR: PROFILE_DIR } : {}),
        ...courierEnv,
      },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    const child = worker;
    const message = (type: ChildMessage["type"]) =>
      new Promise<ChildMessage>((resolve, reject) => {
        const on = (m: ChildMessage) => {
          if (m.type !== type && m.type !== "error") return;
          child.off("message", on);
          if (m.type === "error") reject(new Error(`tracking worker: ${m.message}`));
          else resolve(m);
        };
        child.on("message", on);
        child.once("exit", (code) => reject(new Error(`tracking worker exited with ${code}`)));
      });
    await message("ready");
    const trackCalls0 = ppl.requests.length;
    const tokens0 = ppl.state.tokensIssued;
    ppl.state.maxInFlight = 0;
    const pids0 = await pgPids();
    const pg0 = cpuMs(pids0);
    const fakeCpu0 = process.cpuUsage();
    const workerCpu0 = cpuMs([child.pid!]);
    const resultMessage = message("result");
    child.send({ type: "go" });
    const { result } = (await resultMessage) as Extract<ChildMessage, { type: "result" }>;
    const pids = [...new Set([...pids0, ...(await pgPids())])];
    const pgCpu = cpuMs(pids) - pg0;
    const workerCpuProc = cpuMs([child.pid!]) - workerCpu0;
    const fakeCpu = process.cpuUsage(fakeCpu0);
    const trackNames = ppl.requests.slice(trackCalls0).map(callName);
    const trackCalls = countBy(trackNames);
    const trackingMaxInFlight = ppl.state.maxInFlight;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.send({ type: "exit" });
    await exited;
    worker = undefined;

    const handled = result.batches.reduce((s, b) => s + b.handled, 0);
    const workerCpu = result.cpuUserMs + result.cpuSystemMs;
    const steady = result.batches.slice(1).filter((b) => b.handled > 0);
    const steadyOrders = steady.reduce((s, b) => s + b.handled, 0);
    const steadyMs = steady.reduce((s, b) => s + b.ms, 0);
    const statuses = await sql<{ status: string; n: number; polled_later: number }[]>`
      select status::text, count(*)::int as n, count(tracking_next_at)::int as polled_later
      from shipping_orders where id = any(${ids}::uuid[]) group by status order by status`;
    const [after] = await sql<{ events: number; changes: number; due: number; failures: number }[]>`
      select (select count(*)::int from tracking_events where order_id = any(${ids}::uuid[])) as events,
        (select count(*)::int from events where type = 'shipping_order.status_changed') as changes,
        (select count(*)::int from shipping_orders where id = any(${ids}::uuid[]) and tracking_next_at <= now()) as due,
        (select count(*)::int from shipping_orders where id = any(${ids}::uuid[]) and tracking_failures > 0) as failures`;
    if (handled !== tracked.length) failures.push(`tracking handled ${handled} of ${tracked.length} orders`);
    if (after!.failures > 0) failures.push(`tracking: ${after!.failures} orders with a failed poll`);
    log(
      `tracking: ${handled} orders in ${(result.ms / 1000).toFixed(2)} s (${result.batches.length} calls), ${((handled / result.ms) * 1000).toFixed(0)}/s, worker CPU ${(workerCpu / handled).toFixed(3)} ms/number (/proc ${(workerCpuProc / handled).toFixed(3)}), PG ${(pgCpu / handled).toFixed(3)} ms/number; fake calls ${JSON.stringify(trackCalls)}, max in flight ${trackingMaxInFlight}`,
    );

    // ---- report
    const loadAfter = loadAverage();
    const lines: string[] = [];
    const out = (line = "") => lines.push(line);
    const pgVersion = await serverVersion(sql);
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    out(
      `#### Run of ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC (\`npx tsx bench/couriers.ts --rounds=${ROUNDS}\`)`,
    );
    out();
    out(
      `${cpu}, ${os.cpus().length} cores shared by the app (\`next start\` of build ${build.id}), PostgreSQL ${pgVersion.split(" ")[0]}, the bench process with both fakes, and the tracking worker; Node ${process.version}. Load average ${loadBefore} before, ${loadAfter} after.`,
    );
    out(
      `Each fake answers every call after ${DELAY_MS} ms; one call at a time that would be ${n0((BATCH * DELAY_MS) / 1000)} s for ${BATCH} orders. Wall time: from sending the request to the last byte of the answer, one request at a time. CPU from /proc: the \`next-server\` process, and the backends of the bench database.`,
    );
    out();
    out(
      "| courier | batch | wall ms | HTTP | items | failed | calls to the fake | max in flight | app CPU ms | PG CPU ms |",
    );
    out("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const r of rounds)
      out(
        `| ${r.courier} | ${r.label === "w" ? "warm-up" : r.label} | ${n0(r.ms)} | ${r.status} | ${r.items} | ${r.failed} | ${Object.entries(
          r.callsBy,
        )
          .map(([k, v]) => `${v} × ${k}`)
          .join(", ")} | ${r.maxInFlight} | ${n0(r.serverCpuMs)} | ${n0(r.pgCpuMs)} |`,
      );
    out();
    out(
      `| courier | rounds | median ms | min ms | max ms | target ≤ ${n0(TARGET_MS)} ms | app CPU ms per batch (median) | PG CPU ms per batch (median) |`,
    );
    out("| --- | --- | --- | --- | --- | --- | --- | --- |");
    const summary: Record<string, { median: number; min: number; max: number }> = {};
    for (const courier of ["packeta", "ppl"] as const) {
      const measured = rounds.filter((r) => r.courier === courier && /^\d+$/.test(r.label));
      const ms = measured.map((r) => r.ms);
      const s = { median: median(ms), min: Math.min(...ms), max: Math.max(...ms) };
      summary[courier] = s;
      const allOk = measured.every((r) => r.items === BATCH && r.failed === 0);
      out(
        `| ${courier} | ${measured.length} | **${n0(s.median)}** | ${n0(s.min)} | ${n0(s.max)} | ${s.median <= TARGET_MS && allOk ? "met" : "**not met**"} | ${n0(median(measured.map((r) => r.serverCpuMs)))} | ${n0(median(measured.map((r) => r.pgCpuMs)))} |`,
      );
    }
    out();
    const batches = result.batches.filter((b) => b.handled > 0);
    out(
      `Tracking (one worker process running \`advanceDueTracking(db, { courier: "ppl", batchSize: ${TRACKING_BATCH} })\` until it returned 0): ${n0(tracked.length)} PPL orders due, the fake answering ${n0(phases.InTransport)} as \`InTransport\`, ${n0(phases.Delivered)} as \`Delivered\`, ${n0(phases.Order)} as \`Order\`.`,
    );
    out();
    out(
      "| orders tracked | job calls | wall s | numbers per second | worker CPU ms per number | PG CPU ms per number | calls to the fake | max in flight |",
    );
    out("| --- | --- | --- | --- | --- | --- | --- | --- |");
    out(
      `| ${n0(handled)} | ${result.batches.length} | ${n2(result.ms / 1000)} | **${n0((handled / result.ms) * 1000)}** | **${(workerCpu / handled).toFixed(3)}** | ${(pgCpu / handled).toFixed(3)} | ${Object.entries(
        trackCalls,
      )
        .map(([k, v]) => `${v} × ${k}`)
        .join(", ")} | ${trackingMaxInFlight} |`,
    );
    out();
    out(
      `Per job call (${TRACKING_BATCH} orders each): ${batches.map((b) => n0(b.ms)).join(", ")} ms; without the first (which also fetched the OAuth token${ppl.state.tokensIssued - tokens0 > 0 ? "" : " — none was needed"}), ${n0((steadyOrders / steadyMs) * 1000)} numbers per second. Worker CPU ${n0(workerCpu)} ms in all (\`process.cpuUsage()\`; /proc says ${n0(workerCpuProc)} ms), PostgreSQL ${n0(pgCpu)} ms; the fake PPL in the bench process used ${n0((fakeCpu.user + fakeCpu.system) / 1000)} ms meanwhile (not counted). Afterwards: ${statuses.map((s) => `${n0(s.n)} ${s.status}${s.polled_later < s.n ? ` (${n0(s.polled_later)} still polled)` : ""}`).join(", ")}; ${n0(after!.events - before!.events)} tracking events and ${n0(after!.changes - before!.changes)} \`status_changed\` events written, ${after!.due} orders still due, ${after!.failures} failed polls.`,
    );
    if (failures.length > 0) {
      out();
      out(`**Failures:** ${failures.join("; ")}`);
    }
    const section = lines.join("\n");
    console.log(section);

    if (PROFILE) {
      const profile = summariseProfiles(PROFILE_DIR, 25);
      rmSync(PROFILE_DIR, { recursive: true, force: true });
      if (profile) {
        console.log(`\nThe tracking worker's loop under the profiler: ${n0(profile.totalMs)} ms sampled\n`);
        console.log("| self ms | % | function | where |\n| --- | --- | --- | --- |");
        for (const t of profile.top) console.log(`| ${n0(t.selfMs)} | ${t.pct} | ${t.fn} | ${t.where} |`);
        console.log("\n| area | self ms | % |\n| --- | --- | --- |");
        for (const a of profile.byArea) console.log(`| ${a.area} | ${n0(a.selfMs)} | ${a.pct} |`);
      }
    }
    if (WRITE) {
      writeResults(section);
      log(`wrote section 5e of ${path.relative(".", RESULTS)}`);
    }
    log(
      `packeta median ${n0(summary.packeta!.median)} ms, ppl median ${n0(summary.ppl!.median)} ms; tracking ${n0((handled / result.ms) * 1000)} numbers/s`,
    );
    if (failures.length > 0) {
      log(`FAILURES:\n  ${failures.join("\n  ")}`);
      process.exitCode = 1;
    }
  } finally {
    if (worker && worker.exitCode === null) worker.kill("SIGTERM");
    await app?.stop().catch(() => {});
    await packeta?.close().catch(() => {});
    await ppl?.close().catch(() => {});
    await sql.end({ timeout: 1 }).catch(() => {});
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    rmSync(APP_COPY, { recursive: true, force: true });
    if (flag("keep-db")) log(`kept database ${database.name}`);
    else await dropDatabase(database.name).catch((e: unknown) => console.error(`could not drop ${database.name}:`, e));
  }
}

/** The figures between the 5e markers; a first run adds the section (heading and markers) before "### 6.". */
function writeResults(section: string): void {
  const text = readFileSync(RESULTS, "utf8");
  const block = `${FIGURES_BEGIN}\n\n${section}\n\n${FIGURES_END}`;
  const begin = text.indexOf(FIGURES_BEGIN);
  const end = text.indexOf(FIGURES_END);
  if (begin >= 0 && end > begin) {
    writeFileSync(RESULTS, text.slice(0, begin) + block + text.slice(end + FIGURES_END.length));
    return;
  }
  const at = text.indexOf("\n### 6. ");
  if (at < 0) throw new Error(`${RESULTS} has no "### 6." section to put 5e before`);
  writeFileSync(RESULTS, `${text.slice(0, at + 1)}${SECTION_HEADING}\n\n${block}\n\n${text.slice(at + 1)}`);
}

if (flag("tracking-child")) {
  trackingChild().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
