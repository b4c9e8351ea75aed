/**
 * bench/couriers.ts's scenarios (its header says what they measure), on an app, fakes and a database someone else
 * started: bench/couriers.ts (its own) and bench/smoke.ts (the shared server set). `startCourierFakes` starts the
 * fake Packeta and PPL in this process and gives the environment that points the app at them;
 * `runCourierScenarios` sends the batches and runs the tracking worker (`trackingChild`, a fork of bench/couriers.ts
 * with `--tracking-child`); `courierSection` is the Markdown section of bench/results.md. Import after
 * DATABASE_URL is set (the partner is made through the services).
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { median } from "./load";
import { cpuMs, type Server } from "./servers";

export type CourierConfig = { rounds: number; tracked: number };

export const courierConfig = (o: { quick: boolean; rounds?: string; tracked?: string }): CourierConfig => ({
  rounds: Number(o.rounds ?? (o.quick ? 1 : 5)),
  tracked: Number(o.tracked ?? (o.quick ? 1000 : 5000)),
});

const BATCH = 500;
const DELAY_MS = 150;
const TARGET_MS = 3000;
const COURIER_TIMEOUT_MS = "30000";
const TRACKING_BATCH = 500;

const PACKETA_PASSWORD = "bench0packeta0api0password000001"; // 32 characters, as Packeta's are
const PPL_CLIENT_ID = "bench-shop-client";
const PPL_CLIENT_SECRET = "bench-ppl-client-secret-0123456789";

const n0 = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en") : "–");
const n2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : "–");

// ---------------------------------------------------------------- the fakes

export type CourierFakes = {
  packeta: Awaited<ReturnType<typeof startFakePacketa>>;
  ppl: Awaited<ReturnType<typeof startFakePpl>>;
  /** For the app (and any worker): the couriers' URLs pointing at the fakes, and the call timeout. */
  env: Record<string, string>;
  close: () => Promise<void>;
};

/** The fake Packeta and PPL in this process, each answering every call after 150 ms. */
export async function startCourierFakes(): Promise<CourierFakes> {
  const packeta = await startFakePacketa({ password: PACKETA_PASSWORD, delayMs: DELAY_MS });
  const ppl = await startFakePpl({ clientId: PPL_CLIENT_ID, clientSecret: PPL_CLIENT_SECRET, delayMs: DELAY_MS }).catch(
    async (error: unknown) => {
      await packeta.close().catch(() => {});
      throw error;
    },
  );
  return {
    packeta,
    ppl,
    env: { COURIER_PACKETA_URL: packeta.url, COURIER_PPL_URL: ppl.url, COURIER_TIMEOUT_MS },
    close: async () => {
      await packeta.close().catch(() => {});
      await ppl.close().catch(() => {});
    },
  };
}

export const courierFakesLine = (f: CourierFakes) =>
  `fake Packeta ${f.packeta.url}, fake PPL ${f.ppl.url}, ${DELAY_MS} ms per call`;

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

/** The tracking worker (bench/couriers.ts --tracking-child): waits for "go", runs the PPL tracking job until it returns 0, reports. */
export async function trackingChild(): Promise<void> {
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

// ---------------------------------------------------------------- the scenarios

export type CourierContext = {
  cfg: CourierConfig;
  /** The app, started with `fakes.env` in its environment and WORKER=off (no tracking in the app). */
  app: Server;
  /** A connection to the bench database that sees every role's sessions (pg_stat_activity, for the CPU figures). */
  sql: postgres.Sql;
  /** The database URL the tracking worker connects with, and its AUTH_SECRET. */
  databaseUrl: string;
  authSecret: string;
  fakes: CourierFakes;
  log: (m: string) => void;
  /** The tracking worker's V8 profile goes here (bench/couriers.ts --profile). */
  profileDir?: string;
  /**
   * Runs the tracking measurement while no other worker runs (bench/smoke.ts: one would take due orders from the
   * measured worker); bench/couriers.ts runs it at once.
   */
  exclusiveWorkers?: <T>(fn: () => Promise<T>) => Promise<T>;
};

export type CourierFigures = {
  rounds: Round[];
  tracking: {
    tracked: number;
    phases: { InTransport: number; Delivered: number; Order: number };
    result: ChildResult;
    handled: number;
    workerCpu: number;
    workerCpuProc: number;
    pgCpu: number;
    fakeCpuMs: number;
    calls: Record<string, number>;
    maxInFlight: number;
    tokensIssued: number;
    statuses: { status: string; n: number; polled_later: number }[];
    before: { events: number; changes: number };
    after: { events: number; changes: number; due: number; failures: number };
  };
  failures: string[];
};

export async function runCourierScenarios(ctx: CourierContext): Promise<CourierFigures> {
  const { cfg, app, sql, fakes, log } = ctx;
  const { packeta, ppl } = fakes;
  const failures: string[] = [];

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

  const serverPid = app.serverPid();
  const pgPids = async () =>
    (
      await sql<
        { pid: number }[]
      >`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
    ).map((r) => r.pid);

  const tag = Date.now().toString(36).slice(-6);
  const fakeOf: Record<Courier, Fake> = { packeta, ppl };
  const send = async (courier: Courier, label: string, prefix: string): Promise<Round> => {
    const fake = fakeOf[courier];
    const body = JSON.stringify(
      Array.from({ length: BATCH }, (_, i) => orderFor(courier, `${prefix}-${tag}-${label}-${i}`, i)),
    );
    const calls0 = fake.requests.length;
    fake.state.maxInFlight = 0;
    const pids0 = await pgPids();
    const cpu0 = { server: cpuMs([serverPid]), pg: cpuMs(pids0) };
    const t0 = performance.now();
    const res = await fetch(`${app.url}/api/v2/couriers/${courier}/shipping-orders`, {
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
    for (let r = 1; r <= cfg.rounds; r++) rounds.push(await send(courier, String(r), prefix));
  }

  // ---- 2. tracking: `tracked` PPL orders due, one worker
  const pplOrders = async () =>
    (await sql<{ n: number }[]>`select count(*)::int as n from shipping_orders where courier = 'ppl'`)[0]!.n;
  for (let extra = 1; (await pplOrders()) < cfg.tracked; extra++) {
    const r = await send("ppl", `t${extra}`, "PL");
    if (r.items === 0) throw new Error("PPL orders for the tracking run could not be created");
  }
  const trackingRun = async (): Promise<CourierFigures["tracking"]> => {
    const tracked = await sql<{ id: string; shipping_number: string }[]>`
      select o.id, p.shipping_number from shipping_orders o join parcels p on p.order_id = o.id and p.position = 0
      where o.courier = 'ppl' order by o.created_at, o.id limit ${cfg.tracked}`;
    const ids = tracked.map((t) => t.id);
    const phases = { InTransport: 0, Delivered: 0, Order: 0 };
    tracked.forEach((t, i) => {
      const phase = i % 4 < 2 ? "InTransport" : i % 4 === 2 ? "Delivered" : "Order";
      if (phase !== "Order") ppl.setPhase(t.shipping_number, phase);
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
    let worker: ChildProcess | undefined = fork(path.resolve("bench/couriers.ts"), ["--tracking-child"], {
      execArgv: ["--import", "tsx"],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: ctx.databaseUrl,
        AUTH_SECRET: ctx.authSecret,
        SECRETS_KEY: process.env.SECRETS_KEY,
        // Required in production; the tracking worker's status_changed events link to it.
        PUBLIC_URL: "http://127.0.0.1:3000",
        LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
        ...(ctx.profileDir ? { BENCH_PROFILE_DIR: ctx.profileDir } : {}),
        ...fakes.env,
      },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    try {
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
      return {
        tracked: tracked.length,
        phases,
        result,
        handled,
        workerCpu,
        workerCpuProc,
        pgCpu,
        fakeCpuMs: (fakeCpu.user + fakeCpu.system) / 1000,
        calls: trackCalls,
        maxInFlight: trackingMaxInFlight,
        tokensIssued: ppl.state.tokensIssued - tokens0,
        statuses,
        before: before!,
        after: after!,
      };
    } finally {
      if (worker && worker.exitCode === null) worker.kill("SIGTERM");
    }
  };
  const tracking = await (ctx.exclusiveWorkers ? ctx.exclusiveWorkers(trackingRun) : trackingRun());
  return { rounds, tracking, failures };
}

// ---------------------------------------------------------------- report

/** Per courier: the measured rounds' wall times (not the warm-up). */
export function courierSummary(rounds: Round[]): Record<Courier, { median: number; min: number; max: number }> {
  const of = (courier: Courier) => {
    const ms = rounds.filter((r) => r.courier === courier && /^\d+$/.test(r.label)).map((r) => r.ms);
    return { median: median(ms), min: Math.min(...ms), max: Math.max(...ms) };
  };
  return { packeta: of("packeta"), ppl: of("ppl") };
}

/** The Markdown section (bench/results.md 5e) of a run's figures. */
export function courierSection(
  f: CourierFigures,
  meta: { startedAt: Date; rounds: number; buildId: string; pgVersion: string; loadBefore: string; loadAfter: string },
): string {
  const { rounds, tracking: t, failures } = f;
  const { result, handled } = t;
  const lines: string[] = [];
  const out = (line = "") => lines.push(line);
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  out(
    `#### Run of ${meta.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC (\`npx tsx bench/couriers.ts --rounds=${meta.rounds}\`)`,
  );
  out();
  out(
    `${cpu}, ${os.cpus().length} cores shared by the app (\`next start\` of build ${meta.buildId}), PostgreSQL ${meta.pgVersion.split(" ")[0]}, the bench process with both fakes, and the tracking worker; Node ${process.version}. Load average ${meta.loadBefore} before, ${meta.loadAfter} after.`,
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
  const summary = courierSummary(rounds);
  for (const courier of ["packeta", "ppl"] as const) {
    const measured = rounds.filter((r) => r.courier === courier && /^\d+$/.test(r.label));
    const s = summary[courier];
    const allOk = measured.every((r) => r.items === BATCH && r.failed === 0);
    out(
      `| ${courier} | ${measured.length} | **${n0(s.median)}** | ${n0(s.min)} | ${n0(s.max)} | ${s.median <= TARGET_MS && allOk ? "met" : "**not met**"} | ${n0(median(measured.map((r) => r.serverCpuMs)))} | ${n0(median(measured.map((r) => r.pgCpuMs)))} |`,
    );
  }
  out();
  const batches = result.batches.filter((b) => b.handled > 0);
  const steady = result.batches.slice(1).filter((b) => b.handled > 0);
  const steadyOrders = steady.reduce((s, b) => s + b.handled, 0);
  const steadyMs = steady.reduce((s, b) => s + b.ms, 0);
  out(
    `Tracking (one worker process running \`advanceDueTracking(db, { courier: "ppl", batchSize: ${TRACKING_BATCH} })\` until it returned 0): ${n0(t.tracked)} PPL orders due, the fake answering ${n0(t.phases.InTransport)} as \`InTransport\`, ${n0(t.phases.Delivered)} as \`Delivered\`, ${n0(t.phases.Order)} as \`Order\`.`,
  );
  out();
  out(
    "| orders tracked | job calls | wall s | numbers per second | worker CPU ms per number | PG CPU ms per number | calls to the fake | max in flight |",
  );
  out("| --- | --- | --- | --- | --- | --- | --- | --- |");
  out(
    `| ${n0(handled)} | ${result.batches.length} | ${n2(result.ms / 1000)} | **${n0((handled / result.ms) * 1000)}** | **${(t.workerCpu / handled).toFixed(3)}** | ${(t.pgCpu / handled).toFixed(3)} | ${Object.entries(
      t.calls,
    )
      .map(([k, v]) => `${v} × ${k}`)
      .join(", ")} | ${t.maxInFlight} |`,
  );
  out();
  out(
    `Per job call (${TRACKING_BATCH} orders each): ${batches.map((b) => n0(b.ms)).join(", ")} ms; without the first (which also fetched the OAuth token${t.tokensIssued > 0 ? "" : " — none was needed"}), ${n0((steadyOrders / steadyMs) * 1000)} numbers per second. Worker CPU ${n0(t.workerCpu)} ms in all (\`process.cpuUsage()\`; /proc says ${n0(t.workerCpuProc)} ms), PostgreSQL ${n0(t.pgCpu)} ms; the fake PPL in the bench process used ${n0(t.fakeCpuMs)} ms meanwhile (not counted). Afterwards: ${t.statuses.map((s) => `${n0(s.n)} ${s.status}${s.polled_later < s.n ? ` (${n0(s.polled_later)} still polled)` : ""}`).join(", ")}; ${n0(t.after.events - t.before.events)} tracking events and ${n0(t.after.changes - t.before.changes)} \`status_changed\` events written, ${t.after.due} orders still due, ${t.after.failures} failed polls.`,
  );
  if (failures.length > 0) {
    out();
    out(`**Failures:** ${failures.join("; ")}`);
  }
  return lines.join("\n");
}
