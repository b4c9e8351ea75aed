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
 *
 * The scenarios themselves are in bench/lib/courier-scenarios.ts (bench/smoke.ts runs them too, on its shared server set).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { preparedBuild } from "./lib/build";
import {
  courierConfig,
  courierFakesLine,
  courierSection,
  courierSummary,
  runCourierScenarios,
  startCourierFakes,
  trackingChild,
  type CourierFakes,
} from "./lib/courier-scenarios";
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";
import { summariseProfiles } from "./lib/profile";
import { startApp, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];

const QUICK = flag("quick");
const cfg = courierConfig({ quick: QUICK, rounds: option("rounds"), tracked: option("tracked") });
const WRITE = !QUICK && !flag("no-write") && !flag("profile");
/** `--profile`: the tracking worker's loop runs under the V8 profiler (node:inspector); its top functions are printed. */
const PROFILE = flag("profile");
const PROFILE_DIR = path.join(os.tmpdir(), `sop-bench-couriers-profile-${process.pid}`);

const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
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

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const build = await preparedBuild({ dir: APP_COPY, build: false, log: (m) => log(m) });
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const database = await createDatabase();
  log(`database ${database.name}; build ${build.id}; ${cfg.rounds} rounds; ${cfg.tracked} tracked orders`);
  // db/client and server/env read the environment once, on first use: set it before importing them.
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = AUTH_SECRET;
  process.env.COURIER_TIMEOUT_MS = "30000";
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  let fakes: CourierFakes | undefined;
  let app: Server | undefined;
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    fakes = await startCourierFakes();
    Object.assign(process.env, fakes.env);
    log(courierFakesLine(fakes));

    // WORKER=off (startApp's default): no tracking in the app, the worker's share is measured on its own.
    app = await startApp(
      { databaseUrl: database.url, authSecret: AUTH_SECRET, extraEnv: fakes.env },
      os.tmpdir(),
      build.dir,
      "app-couriers",
    );
    log(`app on ${app.url} (pid ${app.child.pid}, log ${path.join(os.tmpdir(), "app-couriers.log")})`);

    const figures = await runCourierScenarios({
      cfg,
      app,
      sql,
      databaseUrl: database.url,
      authSecret: AUTH_SECRET,
      fakes,
      log,
      profileDir: PROFILE ? PROFILE_DIR : undefined,
    });
    const { failures, tracking } = figures;

    // ---- report
    const section = courierSection(figures, {
      startedAt,
      rounds: cfg.rounds,
      buildId: build.id,
      pgVersion: await serverVersion(sql),
      loadBefore,
      loadAfter: loadAverage(),
    });
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
    const summary = courierSummary(figures.rounds);
    log(
      `packeta median ${n0(summary.packeta.median)} ms, ppl median ${n0(summary.ppl.median)} ms; tracking ${n0((tracking.handled / tracking.result.ms) * 1000)} numbers/s`,
    );
    if (failures.length > 0) {
      log(`FAILURES:\n  ${failures.join("\n  ")}`);
      process.exitCode = 1;
    }
  } finally {
    await app?.stop().catch(() => {});
    await fakes?.close();
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
