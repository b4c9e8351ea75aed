/**
 * `npm run bench [-- --quick] [-- --build] [-- --profile] [-- --only=create,batch,get,validate,key,list]`
 *
 * Builds only if `.next/BUILD_ID` is missing or `--build` is given, creates a fresh PostgreSQL database
 * (sop_bench_<ts>), migrates it, seeds partners through the services and a million orders in SQL, starts
 * the production app (`next start`) and the bare node:http baseline (bench/baseline-server.ts), runs the
 * scenarios with autocannon, prints a table, writes its report and drops the database.
 *
 * Only a complete full run (every scenario, the documented sizes, no --quick, --only, --orders, --duration,
 * --event-rate, --profile, nor BENCH_POOLER_PORT) writes bench/results.md: its tables must all come from one run of
 * the documented configuration. Any other run writes bench/results-partial-run.md (not committed); a partial run
 * through PgBouncer once replaced the report and left its batch-of-500 table empty.
 *
 * `--quick`: 10k orders and 0.5–1 s per load run; checks that every scenario ran without errors (exit 1
 * otherwise), not speed. Full mode also exits 2 when a target is missed; both print the table of targets. `--profile`: the app runs under `node --cpu-prof` (bench/.tmp) and the report
 * gets its top self-time functions. `--orders=N`, `--duration=S` override the data size and run length;
 * `--event-rate=N` the creates per second of the event-lag measurements (default 100). The scenarios themselves are
 * in bench/lib/api-scenarios.ts (bench/smoke.ts runs them too, on its shared server set).
 */
import { preparedBuild } from "./lib/build";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { apiConfig, apiInProcess, apiReport, runApiScenarios, seedApi } from "./lib/api-scenarios";
import { createDatabase, dropDatabase } from "./lib/database";
import { consoleTable, markdown, notesOf } from "./lib/report";
import { startApp, startBaseline, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];

const QUICK = flag("quick");
const PROFILE = flag("profile");
/** See the header: whether this run may replace bench/results.md. */
const COMPLETE =
  !QUICK &&
  !PROFILE &&
  ["only", "orders", "duration", "event-rate"].every((name) => option(name) === undefined) &&
  !process.env.BENCH_POOLER_PORT;
const cfg = apiConfig({
  quick: QUICK,
  only: option("only"),
  orders: option("orders"),
  duration: option("duration"),
  eventRate: option("event-rate"),
});
const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const TMP = path.resolve("bench/.tmp");
const RESULTS = path.resolve("bench/results.md");
const PARTIAL_RESULTS = path.resolve("bench/results-partial-run.md");
const APP_COPY = path.join(os.tmpdir(), `sop-bench-app-${process.pid}`);
const log = (...m: unknown[]) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...m);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

// ---------------------------------------------------------------- main

/** Stops what main() started and drops its database; set by main(), safe to call twice. */
let cleanup: () => Promise<void> = async () => {};

async function main(): Promise<number> {
  mkdirSync(TMP, { recursive: true });
  const build = await preparedBuild({ dir: APP_COPY, build: flag("build") || "if-missing", log: (m) => log(m) });
  const started = Date.now();
  const loadBefore = loadAverage();
  const database = await createDatabase();
  log(`database ${database.name}; build ${build.id}; mode ${QUICK ? "quick" : "full"}`);
  // db/client and server/env read the environment once, on first use: set it before importing them.
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = AUTH_SECRET;
  // The event scenario's receiver listens on loopback.
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  let sql: postgres.Sql | undefined;
  const servers: Server[] = [];
  let cleaned = false;
  cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    await sql?.end({ timeout: 1 }).catch(() => {});
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    rmSync(APP_COPY, { recursive: true, force: true });
    if (flag("keep-db")) log(`kept database ${database.name}`);
    else await dropDatabase(database.name).catch((e: unknown) => console.error(`could not drop ${database.name}:`, e));
  };
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    sql = postgres(database.url, { max: 2, onnotice: () => {} });
    const data = await seedApi(sql, cfg, (m) => log(m));

    const profileDir = PROFILE ? path.join(TMP, `profile-${Date.now().toString(36)}`) : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const started_ = await Promise.allSettled([
      startApp({ databaseUrl: database.url, authSecret: AUTH_SECRET, cpuProfileDir: profileDir }, TMP, build.dir),
      startBaseline({ databaseUrl: database.url, authSecret: AUTH_SECRET, cpuProfileDir: profileDir }, TMP),
    ]);
    for (const s of started_) if (s.status === "fulfilled") servers.push(s.value);
    for (const s of started_) if (s.status === "rejected") throw s.reason;
    const [app, baseline] = servers as [Server, Server];

    const figures = await runApiScenarios(
      { cfg, app, baseline, sql, workerDatabaseUrl: database.url, log: (m) => log(m) },
      data,
    );
    log("stopping servers…");
    await Promise.all(servers.map((s) => s.stop()));
    servers.length = 0;

    // In-process figures, with the servers gone so nothing competes for the cores.
    const inProcess = await apiInProcess(database.url, cfg, data, figures.listFilters);
    const { summariseProfiles } = await import("./lib/profile");
    const profile = profileDir ? summariseProfiles(path.join(profileDir, "app")) : null;
    const baselineProfile = profileDir ? summariseProfiles(path.join(profileDir, "baseline")) : null;

    const report = await apiReport({
      cfg,
      mode: QUICK ? "quick" : COMPLETE ? "full" : "partial",
      command: `npm run bench${argv.length ? ` -- ${argv.join(" ")}` : ""}${process.env.BENCH_POOLER_PORT ? ` (BENCH_POOLER_PORT=${process.env.BENCH_POOLER_PORT})` : ""}`,
      loadBefore,
      sql,
      data,
      figures,
      inProcess,
      profile,
      baselineProfile,
    });
    const { failures, targets } = report;
    console.log(`\n${consoleTable(report)}\n`);
    const previous = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
    const notes = notesOf(previous);
    if (COMPLETE) {
      writeFileSync(RESULTS, markdown(report, notes));
      log("wrote bench/results.md");
    } else {
      writeFileSync(PARTIAL_RESULTS, markdown(report, notes));
      log(
        `${report.mode} run: report in bench/results-partial-run.md (bench/results.md keeps the last complete full run)`,
      );
    }
    if (failures.length) {
      console.error(`\n${failures.length} scenario(s) had errors:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
      return 1;
    }
    // Quick mode (CI) runs too briefly, on too little data, for its figures to judge a target.
    const missed = targets.filter((t) => !t.met);
    if (!QUICK && missed.length) {
      console.error(
        `\n${missed.length} target(s) missed:\n${missed.map((t) => `  - ${t.name}: ${t.figure}`).join("\n")}`,
      );
      return 2;
    }
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return 0;
  } finally {
    await cleanup();
  }
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping the servers and dropping the database (send again to quit at once)`);
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
