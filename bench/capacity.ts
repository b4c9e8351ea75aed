/**
 * `npx tsx bench/capacity.ts [--clients=8,16,32] [--duration=S] [--orders=N] [--script=FILE] [--no-statistics-triggers]`
 *
 * PostgreSQL's ceiling for creates on this machine, without the app: bench/pgbench/create-order.sql replays one
 * single-order create's statements (key + rate-limit token, profile, validation result, then the transaction:
 * locks, live select, one insert for order, parcel and tracking event) with `pgbench -M prepared` at each client
 * count, on a fresh database holding N orders. Prints creates per second and PostgreSQL CPU ms per create (from
 * /proc of the pgbench backends, sampled while they run). Feeds the capacity model in bench/results.md.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { hashApiKey } from "@/server/auth/api-key-secret";
import { createDatabase, dropDatabase } from "./lib/database";
import { cpuMs } from "./lib/servers";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const CLIENTS = (option("clients") ?? "8,16,32").split(",").map(Number);
const DURATION = Number(option("duration") ?? 20);
const ORDERS = Number(option("orders") ?? 100_000);
/** `--no-statistics-triggers`: the same replay with issue 18's triggers disabled, to price them per create. */
const NO_STATISTICS_TRIGGERS = argv.includes("--no-statistics-triggers");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const database = await createDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789-bench-auth-secret";
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const seed = await import("./lib/seed");
    const partner = await seed.createBenchPartner("capacity");
    await seed.seedOrders(sql, partner, 10, ORDERS);
    if (NO_STATISTICS_TRIGGERS) {
      await sql`alter table shipping_orders disable trigger statistics_orders_insert`;
      await sql`alter table validation_results disable trigger statistics_validations`;
      await sql`alter table refused_attempts disable trigger statistics_refused_attempts`;
    }
    const [key] = await sql<{ id: string }[]>`select id from api_keys where account_id = ${partner.accountId}`;
    const url = new URL(database.url);
    for (const clients of CLIENTS) {
      const args = [
        "-n",
        "-M",
        "prepared",
        "-c",
        String(clients),
        "-j",
        "2",
        "-T",
        String(DURATION),
        "-P",
        "1",
        "-f",
        path.resolve(option("script") ?? "bench/pgbench/create-order.sql"),
        "-D",
        `key_hash=${hashApiKey(partner.key)}`,
        "-D",
        `account=${partner.accountId}`,
        "-D",
        `api_key=${key!.id}`,
        "-D",
        `profile=${partner.profileId}`,
        "-h",
        url.hostname,
        "-p",
        url.port || "5432",
        "-U",
        decodeURIComponent(url.username),
        url.pathname.slice(1),
      ];
      const child = spawn("pgbench", args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d));
      child.stderr.on("data", (d: Buffer) => (out += d));
      const exited = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)));
      // CPU of the pgbench backends between 3 s after the start and 2 s before the end, against the transactions
      // pgbench's progress lines count in that window.
      await sleep(3000);
      const pids = (
        await sql<{ pid: number }[]>`select pid from pg_stat_activity where application_name = 'pgbench'`
      ).map((r) => r.pid);
      const cpu0 = cpuMs(pids);
      const t0 = 3;
      await sleep((DURATION - 5) * 1000);
      const cpu1 = cpuMs(pids);
      const t1 = DURATION - 2;
      const code = await exited;
      if (code !== 0) throw new Error(`pgbench exited with ${code}:\n${out}`);
      const progress = [...out.matchAll(/progress: ([\d.]+) s, ([\d.]+) tps/g)].map((m) => ({
        at: Number(m[1]),
        tps: Number(m[2]),
      }));
      const inWindow = progress.filter((p) => p.at > t0 && p.at <= t1);
      const transactions = inWindow.reduce((n, p) => n + p.tps, 0);
      const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);
      const latency = /latency average = ([\d.]+) ms/.exec(out)?.[1];
      const failed = /number of failed transactions: (\d+)/.exec(out)?.[1] ?? "0";
      console.log(
        `clients ${String(clients).padStart(2)}: ${tps.toFixed(0)} creates/s, latency avg ${latency} ms, failed ${failed}, PostgreSQL CPU ${((cpu1 - cpu0) / transactions).toFixed(3)} ms per create (${pids.length} backends, ${transactions.toFixed(0)} creates in the window)`,
      );
    }
    const [sizes] = await sql<{ orders: number }[]>`select count(*)::int as orders from shipping_orders`;
    console.log(`orders stored at the end: ${sizes!.orders}`);
  } finally {
    await sql.end({ timeout: 1 });
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    await dropDatabase(database.name);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
