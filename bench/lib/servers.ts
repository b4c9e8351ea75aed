import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export type Server = {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** The process that serves requests (for `next start`: the `next-server` process, a child of the CLI). */
  serverPid: () => number;
  stop: () => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function children(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

export function descendants(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]!));
  return all;
}

/** VmRSS of a process in MiB, or NaN once it is gone. */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const commOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

async function waitReady(url: string, child: ChildProcess, name: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (${url})`);
}

function start(
  name: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  readyPath: string,
  logDir: string,
  cwd = process.cwd(),
): Promise<Server> {
  const log = createWriteStream(path.join(logDir, `${name}.log`));
  const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  // Two sources into one file: neither may end it (the second would then write after the end and crash the bench).
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once("close", () => log.end());
  const url = `http://127.0.0.1:${port}`;
  const serverPid = () => {
    const tree = descendants(child.pid!);
    return (
      tree.find((p) => /next-server/.test(commOf(p))) ??
      tree.filter((p) => !Number.isNaN(rssMiB(p))).sort((a, b) => rssMiB(b) - rssMiB(a))[0] ??
      child.pid!
    );
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return waitReady(url + readyPath, child, name).then(
    () => ({ name, url, port, child, serverPid, stop }),
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
}

// One key for the bench process (which seeds webhook endpoints) and every app and worker it starts.
process.env.SECRETS_KEY ??= "YmVuY2gtc2VjcmV0cy1rZXktMzItYnl0ZXMtbG9uZyE=";

export type ServerEnv = {
  databaseUrl: string;
  authSecret: string;
  cpuProfileDir?: string;
  /** More environment for the app (bench/couriers.ts: the couriers' URLs pointing at the fakes). */
  extraEnv?: Record<string, string>;
};

/** `node --cpu-prof` (not allowed in NODE_OPTIONS): the profile is written when the server exits on SIGTERM. */
const nodeFlags = (e: ServerEnv, name: string) =>
  e.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(e.cpuProfileDir, name)}`] : [];

export function viaPooler(url: string): string {
  const pooled = new URL(url);
  pooled.port = process.env.BENCH_POOLER_PORT!;
  return pooled.toString();
}

function baseEnv(e: ServerEnv, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: e.databaseUrl,
    AUTH_SECRET: e.authSecret,
    SECRETS_KEY: process.env.SECRETS_KEY,
    NEXTAUTH_SECRET: e.authSecret,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    NEXT_TELEMETRY_DISABLED: "1",
    // Deliveries are measured with a dedicated worker (bench/lib/events.ts); the app's own figures stay free of one.
    WORKER: "off",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // The bench's keys allow 100,000 a minute each and its tenants send more than the default account ceiling.
    ACCOUNT_RATE_LIMIT_PER_MINUTE: "10000000",
    // BENCH_POOLER_PORT: the app (not the bench's own seeding) goes through PgBouncer on that port, in transaction mode.
    ...(process.env.BENCH_POOLER_PORT
      ? { DATABASE_URL: viaPooler(e.databaseUrl), DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: e.databaseUrl }
      : {}),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    ...e.extraEnv,
  };
}

/**
 * The production server (scripts/serve.ts, what `npm start` runs) of a built app directory (see preparedBuild in
 * run.ts), in production mode, against the bench database. BENCH_APP_NODE_FLAGS are extra node flags for it (e.g.
 * `--trace-gc --max-old-space-size=256`).
 */
export async function startApp(e: ServerEnv, logDir: string, appDir: string, name = "app"): Promise<Server> {
  const port = await freePort();
  const extra = process.env.BENCH_APP_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  return start(
    name,
    [
      process.execPath,
      ...nodeFlags(e, name),
      ...extra,
      "--import",
      "tsx",
      path.resolve("scripts/serve.ts"),
      appDir,
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    baseEnv(e, port),
    port,
    "/api/health",
    logDir,
  );
}

/**
 * bench/baseline-server.ts: the same services behind bare node:http. `root`: another checkout of the project to
 * serve (its own sources and tsconfig paths), to compare two versions under the same load.
 */
export async function startBaseline(
  e: ServerEnv,
  logDir: string,
  root = process.cwd(),
  name = "baseline",
): Promise<Server> {
  const port = await freePort();
  return start(
    name,
    [process.execPath, ...nodeFlags(e, name), "--import", "tsx", path.join(root, "bench/baseline-server.ts")],
    baseEnv(e, port),
    port,
    "/health",
    logDir,
    root,
  );
}

/** Samples a process's VmRSS every `everyMs` until stopped; returns the samples (MiB). */
export function sampleRss(pid: () => number, everyMs = 100): { stop: () => number[] } {
  const samples: number[] = [];
  const take = () => {
    const v = rssMiB(pid());
    if (!Number.isNaN(v)) samples.push(v);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** CPU time (user + system) a set of processes has used so far, in ms (clock ticks of 10 ms). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      // gone
    }
  }
  return ticks * 10;
}

/** Stops a process and every descendant it left (a `next start` CLI's server child), by pid. */
export async function stopTree(pid: number | undefined, stop: () => Promise<void>): Promise<void> {
  const tree = pid ? descendants(pid) : [];
  await stop().catch(() => {});
  for (const p of tree) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
