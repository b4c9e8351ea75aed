/**
 * `npx tsx bench/deliveries.ts [--quick] [--only=fairness,slow,feed] [--workers=1] [--keep-db]` (after `npm run build`)
 *
 * Issue 27, deliverable 7: what the contract's "Events and webhooks" promises (fair between accounts, full pace for a
 * slow receiver, a feed that neither skips nor freezes) measured from outside, on the production build. Black-box on
 * purpose: the REST API, loopback receivers, and SQL only for setup and for the other role's long transaction, so the
 * same script runs before and after the fixes and the two runs can be compared line by line.
 *
 * The platform: a fresh database owned by an app role of its own (not a superuser, no `pg_read_all_stats`, as a
 * production app runs; the partners and endpoints are made through the services, as bench/run.ts does), `next start`
 * of the build with its worker inside (WORKER=on, the default) plus `--workers` dedicated `npm run worker` processes
 * (default 1), WEBHOOK_ALLOW_PRIVATE_TARGETS=true, everything on 127.0.0.1. The scenarios run in this order, so the
 * hostile tenant's backlog (which outlives its measurement) comes last:
 *
 * - `feed`: another role (made for it, no `pg_read_all_stats`) opens a transaction and writes a row (so it has an
 *   xid) and holds it open 10 minutes (6 s in --quick) while one account creates 5 orders a second and a reader
 *   follows `GET /api/v2/events` by its cursor. Read latency p50/p99, how fresh the feed was (reader's time minus
 *   the event's `created`), and at the end events read against events committed (SQL): none missing, none twice.
 * - `slow`: one endpoint whose receiver answers every POST after 1.5 s; 1,000 events (40 in --quick) sent in
 *   batches: time until the receiver has answered every one, the most POSTs it had in flight, events/s, and POSTs
 *   of an event already POSTed. The endpoint is deleted afterwards (its leftover backlog, if the deadline
 *   cut the drain, would otherwise run into the next scenario).
 * - `fairness`: a healthy account with one fast receiver creates 10 orders a second for 30 s (5 s in --quick):
 *   its delivery lag (receiver arrival minus the event's `created`) alone, then again beside a hostile account with
 *   20 endpoints (12 that never answer, 8 fast) sending a 5,000-event flood (300 in --quick) in batches of 500.
 *
 * A complete full run (no --quick, no --only, no overrides) writes its tables into bench/results.md as section 5f,
 * between markers a later run replaces, before "### 6." (the hand-written text around them is kept). Any other run
 * writes bench/results-partial-deliveries.md (not committed) and leaves bench/results.md alone. Exit 1 when a scenario
 * errs (setup, a create or read answered with an error, the feed returning an event twice or never) — never on speed:
 * slow figures are the point of the "before" run.
 *
 * The scenarios themselves are in bench/lib/delivery-scenarios.ts (bench/smoke.ts runs them too, on its shared server set).
 */
import { existsSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { preparedBuild } from "./lib/build";
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";
import {
  ALL_DELIVERY_SCENARIOS,
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
import { startApp, stopTree, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];

const QUICK = flag("quick");
const ONLY = option("only");
const SCENARIOS = new Set((ONLY ?? ALL_DELIVERY_SCENARIOS.join(",")).split(",").filter(Boolean));
for (const s of SCENARIOS)
  if (!(ALL_DELIVERY_SCENARIOS as readonly string[]).includes(s))
    throw new Error(`--only: unknown scenario ${s} (${ALL_DELIVERY_SCENARIOS.join(", ")})`);
const WORKERS = Number(option("workers") ?? 1);
/** Only a run of every scenario at full size, as documented, may replace the committed figures. */
const COMPLETE = !QUICK && ONLY === undefined && option("workers") === undefined && !process.env.BENCH_POOLER_PORT;

const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const RESULTS = path.resolve("bench/results.md");
const PARTIAL = path.resolve("bench/results-partial-deliveries.md");
const APP_COPY = path.join(os.tmpdir(), `sop-bench-deliveries-app-${process.pid}`);
const LOG_DIR = os.tmpdir();
const SECTION_HEADING =
  "### 5f. Fair deliveries, slow receivers and the feed under a long transaction (issue 27, 2026-11-27)";
const FIGURES_BEGIN = "<!-- 5f: figures written by bench/deliveries.ts; a later complete run replaces them -->";
const FIGURES_END = "<!-- /5f -->";

const log = (m: string) => console.error(`[deliveries ${new Date().toISOString().slice(11, 19)}] ${m}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

/** The figures between the 5f markers; a first run adds the section (heading and markers) before "### 6.". */
function writeResults(text_: string): void {
  const text = readFileSync(RESULTS, "utf8");
  const block = `${FIGURES_BEGIN}\n\n${text_}\n\n${FIGURES_END}`;
  const begin = text.indexOf(FIGURES_BEGIN);
  const end = text.indexOf(FIGURES_END);
  if (begin >= 0 && end > begin) {
    writeFileSync(RESULTS, text.slice(0, begin) + block + text.slice(end + FIGURES_END.length));
    return;
  }
  const at = text.indexOf("\n### 6. ");
  if (at < 0) throw new Error(`${RESULTS} has no "### 6." section to put 5f before`);
  writeFileSync(RESULTS, `${text.slice(0, at + 1)}${SECTION_HEADING}\n\n${block}\n\n${text.slice(at + 1)}`);
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const build = await preparedBuild({ dir: APP_COPY, build: false, log });
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      return "?";
    }
  })();
  const database = await createDatabase();
  let roles: AppRoles | undefined;
  let app: Server | undefined;
  const workers: ReturnType<typeof startWorkerProcess>[] = [];
  let sql: postgres.Sql | undefined;
  let cleaned = false;
  cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(workers.map((w) => stopTree(w.child.pid, w.stop)));
    await stopTree(app?.child.pid, async () => app?.stop());
    await sql?.end({ timeout: 1 }).catch(() => {});
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    rmSync(APP_COPY, { recursive: true, force: true });
    if (flag("keep-db")) log(`kept database ${database.name} (roles ${database.name}_app, ${database.name}_report)`);
    else {
      await dropDatabase(database.name).catch((e: unknown) => console.error(`could not drop ${database.name}:`, e));
      await roles?.drop();
    }
  };
  const run: DeliveryRun = { cfg: deliveryConfig(QUICK), failures: [], log };
  const { failures } = run;
  try {
    roles = await createAppRoles(database);
    const { appUrl } = roles;
    log(
      `database ${database.name} (owner ${roles.appRole}); build ${build.id}; mode ${QUICK ? "quick" : "full"}; ${[...SCENARIOS].join(", ")}`,
    );
    // db/client and server/env read the environment once, on first use: set it before importing them.
    process.env.DATABASE_URL = appUrl;
    process.env.AUTH_SECRET = AUTH_SECRET;
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    const { migrate } = await import("@/server/migrate");
    await migrate();
    sql = postgres(appUrl, { max: 2, onnotice: () => {} });
    await prepareFeedTable(sql, roles);

    app = await startApp(
      { databaseUrl: appUrl, authSecret: AUTH_SECRET, extraEnv: { WORKER: "on" } },
      LOG_DIR,
      build.dir,
      "app-deliveries",
    );
    for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess(appUrl));
    log(
      `app on ${app.url} (pid ${app.child.pid}, log ${path.join(LOG_DIR, "app-deliveries.log")}); ${WORKERS} worker process(es)`,
    );

    const platform = await deliveryPlatform(app, sql, roles);
    const { feed, slow, fairness } = await runDeliveryScenarios(platform, run, SCENARIOS);

    const text = deliverySection({
      cfg: run.cfg,
      failures,
      command: `npx tsx bench/deliveries.ts${argv.length ? ` ${argv.join(" ")}` : ""}`,
      processes: `the app (\`next start\` of build ${build.id}, its worker inside), ${WORKERS} \`npm run worker\` process${WORKERS === 1 ? "" : "es"}`,
      startedAt,
      commit,
      loadBefore,
      loadAfter: loadAverage(),
      pg: await serverVersion(sql),
      feed,
      slow,
      fairness,
    });
    console.log(`\n${text}\n`);
    // Errors of the product (an event read twice) belong in the figures; a scenario that could not run leaves them incomplete.
    if (COMPLETE && feed && slow && fairness) {
      writeResults(text);
      log(`wrote section 5f of ${path.relative(".", RESULTS)}`);
    } else {
      writeFileSync(
        PARTIAL,
        `# Partial run of bench/deliveries.ts (not committed; bench/results.md keeps the last complete run)\n\n${text}\n`,
      );
      log(
        `${COMPLETE ? "errors" : "partial run"}: report in ${path.relative(".", PARTIAL)} (bench/results.md left alone)`,
      );
    }
    if (failures.length) {
      log(`FAILURES:\n  ${failures.join("\n  ")}`);
      return 1;
    }
    return 0;
  } finally {
    await cleanup();
  }
}

/** Stops what main() started, drops its database and roles; set by main(), safe to call twice. */
let cleanup: () => Promise<void> = async () => {};

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
    if (existsSync(APP_COPY)) rmSync(APP_COPY, { recursive: true, force: true });
    process.exit(1);
  },
);
