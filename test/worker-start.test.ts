import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startCluster, type Cluster } from "@/test/pg-cluster";

/**
 * `npm run worker` whose start-up session is terminated (an operator's pg_terminate_backend, a failover) retries
 * its start instead of dying with an uncaught CONNECTION_CLOSED. Staged without timing: the migration waits on its
 * advisory lock, held here; its backend is terminated while it waits, then the lock is let go.
 */

let cluster: Cluster;
let admin: Sql;
const children: ChildProcess[] = [];

beforeAll(async () => {
  // Not migrated: the worker's own start-up migrates it.
  cluster = await startCluster();
  admin = postgres(cluster.url, { max: 2, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await admin?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

async function poll<T>(what: string, probe: () => Promise<T | null> | T | null, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("retries its start when its migration's backend is terminated, and runs", async () => {
  const lock = await admin.reserve();
  await lock`select pg_advisory_lock(727274)`;
  let log = "";
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: cluster.url,
      PGLITE_SNAPSHOT: "",
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sop-worker-start-")),
      WORKER_POLLING_SECONDS: "0.5",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  child.stdout!.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(`exited (${code ?? signal})`)),
  );
  try {
    // The migration's session, waiting for the lock this test holds.
    const waiting = await poll(
      "the worker's migration to wait on its lock",
      async () => {
        const rows = await admin<{ pid: number }[]>`
          select pid from pg_stat_activity where wait_event_type = 'Lock' and query like '%pg_advisory_lock(727274)%'`;
        return rows[0]?.pid ?? null;
      },
      60_000,
    );
    await admin`select pg_terminate_backend(${waiting})`;
  } finally {
    await lock`select pg_advisory_unlock(727274)`;
    lock.release();
  }
  const outcome = await poll(
    "the worker to run or exit",
    () => (log.includes("worker: running") ? "running" : child.exitCode !== null ? `exited (${child.exitCode})` : null),
    90_000,
  );
  expect(outcome, log).toBe("running");
  expect(log).toMatch(/connection closed while starting \(attempt 1 of \d+\); retrying/);
  child.kill("SIGTERM");
  expect(await exited).toBe("exited (0)");
}, 150_000);
