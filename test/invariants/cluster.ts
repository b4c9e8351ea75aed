/**
 * The platform under test as real processes on a fresh PostgreSQL database: web processes (`scripts/serve.ts`, what
 * `npm start` runs, of the production build, worker on inside, the default) and dedicated workers (`scripts/worker.ts`).
 * The app connects as its own non-superuser role, as in production, so another role's transactions are hidden from
 * it in pg_stat_activity (a feed that waited on what it can see would freeze). Every child is tracked by pid and
 * killed by pid at the end.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { descendants as processTree, freePort } from "../../bench/lib/servers";
import { sleep, waitUntil } from "./random";

const ADMIN_URL = process.env.INVARIANTS_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export const AUTH_SECRET = "invariants-auth-secret-0123456789-invariants";
export const SECRETS_KEY = "aW52YXJpYW50cy1zZWNyZXRzLWtleS0zMi1ieXRlcyE=";
/** Short enough that every schedule ends within the run: 3 attempts, 3 s and 6 s apart. */
export const RETRY_SCHEDULE = [3, 6];
export const WEBHOOK_TIMEOUT_MS = 3000;

export type Database = {
  name: string;
  appRole: string;
  reportRole: string;
  /** The app's URL (its own role). */
  url: string;
  /** Superuser on the run's database: the checker and the nemesis. */
  admin: postgres.Sql;
  drop(): Promise<void>;
};

export async function createDatabase(tag: string): Promise<Database> {
  const server = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `inv_${tag}`;
  const appRole = `${name}_app`;
  const reportRole = `${name}_report`;
  await server.unsafe(`create role "${appRole}" login`);
  await server.unsafe(`create role "${reportRole}" login`);
  await server.unsafe(`create database "${name}" owner "${appRole}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const admin = postgres(url.toString(), { max: 6, onnotice: () => {} });
  url.username = appRole;
  const appUrl = url.toString();
  return {
    name,
    appRole,
    reportRole,
    url: appUrl,
    admin,
    drop: async () => {
      await admin.end({ timeout: 5 }).catch(() => {});
      await server.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await server.unsafe(`drop role if exists "${appRole}"`).catch(() => {});
      await server.unsafe(`drop role if exists "${reportRole}"`).catch(() => {});
      await server.end({ timeout: 5 });
    },
  };
}

/** The project's own migrate script (`npm run db:migrate`), against the run's database as the app's role. */
export async function migrate(databaseUrl: string): Promise<void> {
  await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET,
      SECRETS_KEY,
      PUBLIC_URL: "http://127.0.0.1:3000",
      NODE_ENV: "production",
    },
  });
}

const killPid = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
};

export type Role = "web" | "worker";

export type Member = {
  name: string;
  role: Role;
  /** Web processes: where they answer (the same port across restarts). */
  url: string | null;
  child: ChildProcess | null;
  up: boolean;
  starts: number;
  logFile: string;
};

export type ClusterOptions = {
  databaseUrl: string;
  logDir: string;
  webs: number;
  workers: number;
  /** DATABASE_POOL_MAX of every process (default: the app's own, 10). */
  poolMax?: number;
  /** More environment for every process (the fake couriers' URLs: COURIER_PPL_URL). */
  env?: Record<string, string>;
};

export class Cluster {
  readonly members: Member[] = [];
  /** Processes that exited on their own (not stopped by the nemesis or the end of the run). */
  readonly unexpectedExits: { name: string; at: number; code: number | null; signal: string | null }[] = [];
  private ports = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: ClusterOptions) {}

  async start(): Promise<void> {
    for (let i = 0; i < this.options.webs; i++) {
      const port = await freePort();
      this.ports.set(`web${i + 1}`, port);
      this.members.push(this.member(`web${i + 1}`, "web", `http://127.0.0.1:${port}`));
    }
    for (let i = 0; i < this.options.workers; i++) this.members.push(this.member(`worker${i + 1}`, "worker", null));
    await Promise.all(this.members.map((m) => this.launch(m)));
  }

  private member(name: string, role: Role, url: string | null): Member {
    return {
      name,
      role,
      url,
      child: null,
      up: false,
      starts: 0,
      logFile: path.join(this.options.logDir, `${name}.log`),
    };
  }

  webs(): Member[] {
    return this.members.filter((m) => m.role === "web");
  }

  /** A web process that answered its health check last time it was started and has not been stopped since. */
  liveWebUrls(): string[] {
    return this.webs()
      .filter((m) => m.up)
      .map((m) => m.url!);
  }

  private env(port: number | null): NodeJS.ProcessEnv {
    const publicUrl = `http://127.0.0.1:${port ?? 3000}`;
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      ...(port ? { PORT: String(port) } : {}),
      DATABASE_URL: this.options.databaseUrl,
      AUTH_SECRET,
      NEXTAUTH_SECRET: AUTH_SECRET,
      NEXTAUTH_URL: publicUrl,
      PUBLIC_URL: publicUrl,
      SECRETS_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // The tenants' keys allow 100,000 a minute each; the suite measures the platform, not the account ceiling.
      ACCOUNT_RATE_LIMIT_PER_MINUTE: "10000000",
      WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE.join(","),
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      // Expired jobs (a killed worker's) come back within the run rather than a minute later.
      WORKER_MAINTENANCE_SECONDS: "10",
      LOG_LEVEL: "warn",
      // A small pool (INVARIANTS_POOL_MAX) keeps every connection busy under load, so postgres.js reconnects a
      // reserved connection whose backend was terminated at once, for a waiting query, while its transaction's
      // body is still running: the window of half a transaction (README), rarely reached with 10 connections.
      ...(this.options.poolMax ? { DATABASE_POOL_MAX: String(this.options.poolMax) } : {}),
      ...this.options.env,
    };
  }

  private async launch(m: Member): Promise<void> {
    if (this.closed) return;
    const log = createWriteStream(m.logFile, { flags: "a" });
    log.write(`\n--- start ${m.starts + 1} at ${new Date().toISOString()}\n`);
    const port = m.url ? this.ports.get(m.name)! : null;
    const command =
      m.role === "web"
        ? ["--import", "tsx", path.resolve("scripts/serve.ts"), "-p", String(port), "-H", "127.0.0.1"]
        : ["--import", "tsx", path.resolve("scripts/worker.ts")];
    const child = spawn(process.execPath, command, { env: this.env(port), stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    child.once("close", () => log.end());
    // A supervisor's part: a process that exits on its own is recorded (a finding) and started again.
    child.once("exit", (code, signal) => {
      if (!m.up || m.child !== child || this.closed) return;
      m.up = false;
      this.unexpectedExits.push({ name: m.name, at: Date.now(), code, signal });
      void this.restart(m).catch(() => {});
    });
    m.child = child;
    m.starts += 1;
    if (m.role === "worker") {
      // The worker migrates, then says so on stdout.
      let ready = false;
      child.stdout!.on("data", (c: Buffer) => {
        if (c.toString().includes("worker: running")) ready = true;
      });
      if (!(await waitUntil(() => ready || child.exitCode !== null, 90_000)) || !ready)
        throw new Error(`${m.name} did not start (log ${m.logFile})`);
    } else {
      const ok = await waitUntil(
        async () => {
          if (child.exitCode !== null) return true;
          try {
            return (await fetch(`${m.url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
          } catch {
            return false;
          }
        },
        90_000,
        250,
      );
      if (!ok || child.exitCode !== null) throw new Error(`${m.name} did not start (log ${m.logFile})`);
    }
    m.up = true;
  }

  private async exited(m: Member, timeoutMs: number): Promise<boolean> {
    const child = m.child;
    if (!child) return true;
    return waitUntil(() => child.exitCode !== null || child.signalCode !== null, timeoutMs, 100);
  }

  /** SIGKILL the whole tree (the server and the CLI that forked it) at once: a crash. */
  async kill(m: Member): Promise<void> {
    m.up = false;
    if (!m.child) return;
    for (const pid of processTree(m.child.pid!)) killPid(pid, "SIGKILL");
    await this.exited(m, 20_000);
  }

  /** SIGTERM, as an orchestrator stops a process in a rolling deploy; SIGKILL after 40 s. */
  async terminate(m: Member): Promise<void> {
    m.up = false;
    if (!m.child) return;
    const tree = processTree(m.child.pid!);
    killPid(m.child.pid!, "SIGTERM");
    if (!(await this.exited(m, 40_000))) for (const pid of processTree(m.child.pid!)) killPid(pid, "SIGKILL");
    // Whatever of the tree is left (a server the CLI forked) must not keep the port.
    for (const pid of tree) killPid(pid, "SIGKILL");
    await sleep(100);
  }

  /** Starts it again, up to 3 tries (a start can fail when its own database session is ended under it). */
  restart(m: Member): Promise<void> {
    // One start at a time per member (the supervisor and the quiet phase may both ask).
    const running = this.restarting.get(m);
    if (running) return running;
    const started = this.startWithRetries(m).finally(() => this.restarting.delete(m));
    this.restarting.set(m, started);
    return started;
  }

  private restarting = new Map<Member, Promise<void>>();

  private async startWithRetries(m: Member): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.launch(m);
      } catch (error) {
        if (attempt >= 3 || this.closed) throw error;
        if (m.child) for (const pid of processTree(m.child.pid!)) killPid(pid, "SIGKILL");
      }
    }
  }

  /** Every child, by pid, whatever state the run ended in. */
  async stopAll(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.members.map(async (m) => {
        if (!m.child) return;
        for (const pid of processTree(m.child.pid!)) killPid(pid, "SIGTERM");
        if (!(await this.exited(m, 15_000))) for (const pid of processTree(m.child.pid!)) killPid(pid, "SIGKILL");
        m.up = false;
      }),
    );
  }

  killAllNow(): void {
    this.closed = true;
    for (const m of this.members) if (m.child?.pid) for (const pid of processTree(m.child.pid)) killPid(pid, "SIGKILL");
  }
}
