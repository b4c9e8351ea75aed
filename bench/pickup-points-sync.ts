/**
 * `npx tsx bench/pickup-points-sync.ts [--count=100000]`
 *
 * A full sync of Packeta's directory (its points and boxes feeds, 100,000 points together) from the fake feeds in a
 * process of their own on loopback, into a fresh PostgreSQL database (ADMIN_URL's server, dropped at the end); then
 * a second sync of the same feeds (nothing changed: the diff's cost). For each: wall time, and this process's growth
 * in RSS and heap over its state before the sync (peaks sampled every 50 ms). Targets: a full sync ≤ 60 s, memory
 * growth ≤ 150 MB. Prints a markdown table; exits 2 when a target is missed.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { openPostgres } from "@/db/client";
import { syncFeed, type SyncResult } from "@/server/pickup-points/sync/sync-feed";
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";

const count = Number(process.argv.find((a) => a.startsWith("--count="))?.split("=")[1] ?? 100_000);
const KEY = "bench0123456789a";
const MB = 1024 * 1024;

const fake = spawn(
  process.execPath,
  ["--import", "tsx", "server/couriers/packeta/fake-feed-server-main.ts", "--api-key", KEY, "--count", String(count)],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const feedUrl = await new Promise<string>((resolve, reject) => {
  createInterface({ input: fake.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
  fake.once("exit", (code) => reject(new Error(`the fake feed exited (${code})`)));
});

const database = await createDatabase();
const client = postgres(database.url, { max: 1, onnotice: () => {} });
await migrate(drizzle({ client }), { migrationsFolder: "db/migrations" });
const version = await serverVersion(client);
await client.end();
const handle = await openPostgres(database.url, 4);

type Row = { run: string; listed: number; changed: number; seconds: number; rssMb: number; heapMb: number };
const rows: Row[] = [];

async function measure(run: string): Promise<Row> {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 50);
  const started = performance.now();
  const config = { packeta: { apiKey: KEY, feedUrl } };
  const results: SyncResult[] = [];
  for (const feed of ["packeta-points", "packeta-boxes"] as const)
    results.push(await syncFeed(handle.db, feed, config));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const synced = results.filter((r) => r.outcome === "synced");
  if (synced.length !== results.length) throw new Error(`a sync failed: ${JSON.stringify(results)}`);
  return {
    run,
    listed: synced.reduce((sum, r) => sum + r.listed, 0),
    changed: synced.reduce((sum, r) => sum + r.changed, 0),
    seconds,
    rssMb: (peakRss - before.rss) / MB,
    heapMb: (peakHeap - before.heapUsed) / MB,
  };
}

try {
  rows.push(await measure("full sync (empty directory)"));
  rows.push(await measure("second sync (no changes)"));
} finally {
  await handle.close();
  await dropDatabase(database.name);
  fake.kill("SIGTERM");
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);
console.log(`\nPickup-point sync, Packeta, ${count} points, PostgreSQL ${version}, Node ${process.version}\n`);
console.log("| run | points listed | rows written | wall time (s) | RSS growth (MB) | heap growth (MB) |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of rows)
  console.log(
    `| ${r.run} | ${r.listed} | ${r.changed} | ${fixed(r.seconds)} | ${fixed(r.rssMb)} | ${fixed(r.heapMb)} |`,
  );
const missed = rows.filter((r) => r.seconds > 60 || r.rssMb > 150 || r.heapMb > 150);
console.log(
  `\nTargets (≤ 60 s, ≤ 150 MB): ${missed.length === 0 ? "met" : `missed by ${missed.map((r) => r.run).join(", ")}`}`,
);
process.exit(missed.length === 0 ? 0 : 2);
