/**
 * `npx tsx bench/smoke.ts [--build] [--keep-db]` (builds first only if `.next/BUILD_ID` is missing, or with --build)
 *
 * CI's benchmark smoke run: every scenario of the four benches' quick mode (`npm run bench -- --quick`,
 * `npx tsx bench/couriers.ts --quick`, `bench/deliveries.ts --quick`, `bench/pickup-points.ts --quick`) on ONE
 * server set, each checked as its own quick run checks it (every scenario runs without errors; exit 1 otherwise,
 * never on speed). It writes no report: it prints each bench's table and how long each part took.
 *
 * The server set: one fresh database owned by an app role of its own (not a superuser, no `pg_read_all_stats`: the
 * feed scenario needs the app unable to see another role's sessions; the bench's own superuser connection seeds and
 * reads pg_stat_activity for the CPU figures), migrated; run.ts's 10,000 orders seeded; the fake Packeta and PPL in
 * this process; one production app (`next start` of a copy of the build, WORKER=off, the couriers' URLs pointing
 * at the fakes) and run.ts's node:http baseline. Workers are started where a scenario needs them: the event path's
 * one worker (run.ts), the tracking worker (couriers.ts), and for deliveries.ts two `npm run worker` processes in
 * place of its app's own worker and its dedicated one (this app runs WORKER=off: run.ts and couriers.ts measure a
 * worker of their own against a backlog no other worker may touch).
 *
 * The parts run side by side where they do not meet: run.ts's scenarios (most of the time: fixed-length load runs)
 * beside couriers.ts then pickup-points.ts, and deliveries.ts's slow receiver and fairness once run.ts's event path is
 * over; deliveries.ts's feed runs beside them all from the start (it needs no worker: reads number the feed, sequence-events.ts). The sections that
 * start a worker or need none running take turns (run.ts's event path, couriers.ts's tracking, deliveries.ts's slow
 * and fairness with their two workers), and deliveries.ts's turn comes after run.ts's event path. pickup-points.ts
 * comes after couriers.ts: its directory (a synced Packeta feed) makes Packeta orders' pickup points checked, and
 * couriers.ts's name a point that is not in it. After couriers.ts its orders' tracking is parked (nothing polls the
 * fakes later). Nothing else is shared between the parts but the app, the database and the cores, so the figures
 * printed are not comparable with a bench's own run; only the errors count.
 */
import os from "node:os";
import path from "node:path";
import { rmSync } from "node:fs";
import postgres from "postgres";
import { apiConfig, apiInProcess, apiReport, runApiScenarios, seedApi } from "./lib/api-scenarios";
import { preparedBuild } from "./lib/build";
import {
  courierConfig,
  courierFakesLine,
  courierSection,
  runCourierScenarios,
  startCourierFakes,
  type CourierFakes,
} from "./lib/courier-scenarios";
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";
import {
  createAppRoles,
  deliveryConfig,
  deliveryPlatform,
  deliverySection,
  prepareFeedTable,
  runDeliveryScenarios,
  type AppRoles,
  type DeliveryRun,
} from "./lib/delivery-scenarios";
import { startWorkerProcess } from "./lib/events";
import { pickupPointConfig, runPickupPointScenarios } from "./lib/pickup-point-scenarios";
import { consoleTable } from "./lib/report";
import { startApp, startBaseline, stopTree, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);

const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const APP_COPY = path.join(os.tmpdir(), `sop-bench-smoke-app-${process.pid}`);
const LOG_DIR = os.tmpdir();
/** deliveries.ts runs its app's own worker and one dedicated worker; here both are `npm run worker` processes. */
const DELIVERY_WORKERS = 2;

const api = apiConfig({ quick: true });
const couriers = courierConfig({ quick: true });
const pickupPoints = pickupPointConfig({ quick: true });

const t0 = performance.now();
const since = () => (performance.now() - t0) / 1000;
const log = (part: string) => (m: string) =>
  console.error(`[smoke ${new Date().toISOString().slice(11, 19)} ${part}] ${m}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

type Part = { name: string; start: number; end: number; outcome: string };
const parts: Part[] = [];
/** Runs a part and notes when it started and ended (seconds since the smoke started) and how it ended. */
async function part<T>(name: string, fn: () => Promise<T>, outcome: (value: T) => string = () => "ok"): Promise<T> {
  const p: Part = { name, start: since(), end: NaN, outcome: "running" };
  parts.push(p);
  try {
    const value = await fn();
    p.outcome = outcome(value);
    return value;
  } catch (error) {
    p.outcome = "threw";
    throw error;
  } finally {
    p.end = since();
  }
}
const errorsOutcome = (v: { failures: string[] }) => (v.failures.length ? `${v.failures.length} error(s)` : "ok");

/** One section at a time, in the order asked: the sections that start a worker or need none running. */
function turns(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const result = tail.then(fn);
    tail = result.catch(() => {});
    return result;
  };
}

/** Stops what main() started, drops its database and roles; set by main(), safe to call twice. */
let cleanup: () => Promise<void> = async () => {};

async function main(): Promise<number> {
  const failures: string[] = [];
  const tables: { bench: string; text: string }[] = [];
  const loadBefore = loadAverage();
  const startedAt = new Date();

  const build = await part("build: check, copy outside the checkout", () =>
    preparedBuild({ dir: APP_COPY, build: flag("build") || "if-missing", log: log("build") }),
  );
  const database = await createDatabase();
  let roles: AppRoles | undefined;
  let adminSql: postgres.Sql | undefined;
  let appSql: postgres.Sql | undefined;
  let fakes: CourierFakes | undefined;
  const servers: Server[] = [];
  const workers: ReturnType<typeof startWorkerProcess>[] = [];
  let cleaned = false;
  cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(workers.map((w) => stopTree(w.child.pid, w.stop)));
    await Promise.all(servers.map((s) => stopTree(s.child.pid, s.stop)));
    await fakes?.close();
    await adminSql?.end({ timeout: 1 }).catch(() => {});
    await appSql?.end({ timeout: 1 }).catch(() => {});
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    rmSync(APP_COPY, { recursive: true, force: true });
    if (flag("keep-db")) log("smoke")(`kept database ${database.name} (roles ${database.name}_app, _report)`);
    else {
      await dropDatabase(database.name).catch((e: unknown) => console.error(`could not drop ${database.name}:`, e));
      await roles?.drop();
    }
  };
  try {
    // ---- the server set
    await part("database: create, roles, migrate (as the app role)", async () => {
      roles = await createAppRoles(database);
      // db/client and server/env read the environment once, on first use: set it before importing them.
      process.env.DATABASE_URL = roles.appUrl;
      process.env.AUTH_SECRET = AUTH_SECRET;
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
      process.env.COURIER_TIMEOUT_MS = "30000";
      const { migrate } = await import("@/server/migrate");
      await migrate();
      appSql = postgres(roles.appUrl, { max: 2, onnotice: () => {} });
      await prepareFeedTable(appSql, roles);
      // The bench's own superuser session: the seed's session settings, every role's backends in pg_stat_activity.
      adminSql = postgres(database.url, { max: 4, onnotice: () => {} });
    });
    const appUrl = roles!.appUrl;
    log("smoke")(`database ${database.name} (owner ${roles!.appRole}); build ${build.id}`);
    const data = await part("seed: run.ts's partners and 10,000 orders", () => seedApi(adminSql!, api, log("api")));

    await part("servers: fakes, then app ‖ baseline", async () => {
      fakes = await startCourierFakes();
      Object.assign(process.env, fakes.env);
      log("smoke")(courierFakesLine(fakes));
      const e = { databaseUrl: appUrl, authSecret: AUTH_SECRET, extraEnv: fakes.env };
      const started = await Promise.allSettled([
        part("  app (next start)", () => startApp(e, LOG_DIR, build.dir, "app-smoke")),
        part("  baseline (node:http)", () => startBaseline(e, LOG_DIR, process.cwd(), "baseline-smoke")),
      ]);
      for (const s of started) if (s.status === "fulfilled") servers.push(s.value);
      for (const s of started) if (s.status === "rejected") throw s.reason;
      log("smoke")(
        `app on ${servers[0]!.url} (log ${path.join(LOG_DIR, "app-smoke.log")}), baseline on ${servers[1]!.url}`,
      );
    });
    const [app, baseline] = servers as [Server, Server];
    const sql = adminSql!;
    const exclusive = turns();
    const deliveries: DeliveryRun = { cfg: deliveryConfig(true), failures: [], log: log("deliveries") };
    const platform = await deliveryPlatform(app, appSql!, roles!);

    // ---- run.ts: its HTTP scenarios, then its in-process figures
    let eventPathDone!: () => void;
    const afterEventPath = new Promise<void>((resolve) => (eventPathDone = resolve));
    const apiPart = (async () => {
      const figures = await part(
        "run.ts: HTTP scenarios",
        () =>
          runApiScenarios(
            {
              cfg: api,
              app,
              baseline,
              sql,
              workerDatabaseUrl: appUrl,
              workerEnv: fakes!.env,
              log: log("api"),
              exclusiveWorkers: (fn) =>
                exclusive(() => part("  run.ts: event path (one worker, its turn)", fn)).finally(eventPathDone),
            },
            data,
          ),
        errorsOutcome,
      );
      const inProcess = await part("run.ts: in-process (EXPLAIN, key cost)", () =>
        apiInProcess(database.url, api, data, figures.listFilters),
      );
      const report = await apiReport({
        cfg: api,
        mode: "quick",
        command: "npx tsx bench/smoke.ts (bench/run.ts --quick's scenarios)",
        loadBefore,
        sql,
        data,
        figures,
        inProcess,
        profile: null,
        baselineProfile: null,
      });
      tables.push({ bench: "bench/run.ts --quick", text: consoleTable(report) });
      failures.push(...report.failures.map((f) => `run.ts: ${f}`));
    })().finally(eventPathDone);

    // ---- couriers.ts, then pickup-points.ts
    const otherParts = (async () => {
      const courierFigures = await part(
        "couriers.ts: batches, tracking",
        () =>
          runCourierScenarios({
            cfg: couriers,
            app,
            sql,
            databaseUrl: appUrl,
            authSecret: AUTH_SECRET,
            fakes: fakes!,
            log: log("couriers"),
            exclusiveWorkers: (fn) => exclusive(() => part("  couriers.ts: tracking worker (its turn)", fn)),
          }),
        errorsOutcome,
      );
      // Parked: no later worker polls the fakes for these orders (any worker gets the fakes' URLs all the same).
      await sql`update shipping_orders set tracking_next_at = null where courier in ('packeta', 'ppl')`;
      tables.push({
        bench: "bench/couriers.ts --quick",
        text: courierSection(courierFigures, {
          startedAt,
          rounds: couriers.rounds,
          buildId: build.id,
          pgVersion: await serverVersion(sql),
          loadBefore,
          loadAfter: loadAverage(),
        }),
      });
      failures.push(...courierFigures.failures.map((f) => `couriers.ts: ${f}`));

      await part("pickup-points.ts: directory, searches, batch validation", async () => {
        // Its own one-connection pool, as bench/pickup-points.ts runs with DATABASE_POOL_MAX=1.
        const { openPostgres } = await import("@/db/client");
        const handle = await openPostgres(appUrl, 1);
        try {
          const { table } = await runPickupPointScenarios({
            db: handle.db,
            sql,
            cfg: pickupPoints,
            log: log("pickup"),
          });
          tables.push({ bench: "bench/pickup-points.ts --quick", text: table });
        } finally {
          await handle.close();
        }
      });
    })();

    // ---- deliveries.ts's slow receiver and fairness: their two workers' turn, after run.ts's event path
    const deliveryTurn = afterEventPath.then(() =>
      exclusive(() =>
        part(
          "deliveries.ts: slow, fairness (two workers, their turn)",
          async () => {
            const started = workers.length;
            for (let i = 0; i < DELIVERY_WORKERS; i++) workers.push(startWorkerProcess(appUrl, fakes!.env));
            try {
              return await runDeliveryScenarios(platform, deliveries, new Set(["slow", "fairness"]));
            } finally {
              // Stopped before the turn ends: no worker of theirs may meet a later section.
              await Promise.all(workers.splice(started).map((w) => stopTree(w.child.pid, w.stop)));
            }
          },
          () => errorsOutcome(deliveries),
        ),
      ),
    );

    // ---- deliveries.ts's feed: no worker needed (reads number the feed), so beside everything else from the start
    const feedPart = part(
      "deliveries.ts: feed (another role's long transaction)",
      () => runDeliveryScenarios(platform, deliveries, new Set(["feed"])),
      () => errorsOutcome(deliveries),
    );

    const settled = await Promise.allSettled([apiPart, otherParts, deliveryTurn, feedPart]);
    const [, , others, feed] = settled;
    if (others.status === "fulfilled" && feed.status === "fulfilled")
      tables.push({
        bench: "bench/deliveries.ts --quick",
        text: deliverySection({
          cfg: deliveries.cfg,
          failures: deliveries.failures,
          command: "npx tsx bench/smoke.ts (bench/deliveries.ts --quick's scenarios)",
          processes: `the app (\`next start\` of build ${build.id}, WORKER=off) and the baseline, ${DELIVERY_WORKERS} \`npm run worker\` processes, the other smoke parts`,
          startedAt,
          commit: "-",
          loadBefore,
          loadAfter: loadAverage(),
          pg: await serverVersion(sql),
          ...others.value,
          feed: feed.value.feed,
        }),
      });
    failures.push(...deliveries.failures.map((f) => `deliveries.ts: ${f}`));
    const names = [
      "run.ts",
      "couriers.ts or pickup-points.ts",
      "deliveries.ts (slow, fairness)",
      "deliveries.ts (feed)",
    ];
    for (const [i, s] of settled.entries())
      if (s.status === "rejected")
        failures.push(
          `${names[i]}: ${s.reason instanceof Error ? (s.reason.stack ?? s.reason.message) : String(s.reason)}`,
        );

    const order = ["run.ts", "couriers.ts", "deliveries.ts", "pickup-points.ts"];
    tables.sort((a, b) => order.findIndex((o) => a.bench.includes(o)) - order.findIndex((o) => b.bench.includes(o)));
    for (const t of tables) console.log(`\n===== ${t.bench} (on the smoke's shared server set)\n\n${t.text}`);
    return failures.length ? 1 : 0;
  } catch (error) {
    failures.push(`setup: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await part("stop everything, drop the database", () => cleanup()).catch(() => {});
    console.log(`\n===== smoke parts (seconds since the start; indented parts are inside the one above)\n`);
    console.log("| part | from s | to s | took s | outcome |\n| --- | --- | --- | --- | --- |");
    for (const p of parts)
      console.log(
        `| ${p.name} | ${p.start.toFixed(1)} | ${p.end.toFixed(1)} | ${(p.end - p.start).toFixed(1)} | ${p.outcome} |`,
      );
    console.log(`\nwall ${since().toFixed(1)} s; load average ${loadBefore} before, ${loadAverage()} after`);
    if (failures.length)
      console.error(`\nsmoke FAILED, ${failures.length} error(s):\n${failures.map((f) => `  - ${f}`).join("\n")}`);
    else console.error("\nsmoke passed: every scenario of the four benches ran without errors");
  }
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping the processes, dropping the database and roles (send again to quit at once)`);
    void cleanup().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    rmSync(APP_COPY, { recursive: true, force: true });
    process.exit(1);
  },
);
