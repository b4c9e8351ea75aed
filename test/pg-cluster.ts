import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL cluster of its own (initdb + pg_ctl), for fault tests that stop the server or kill
 * its backends: nothing else shares it, and it works whether or not the run has a DATABASE_URL. Trust auth on
 * 127.0.0.1, fsync off. Tests run as root in CI, and PostgreSQL refuses root, so the binaries then run as the
 * `postgres` OS user.
 */
export type Cluster = {
  /** postgres://postgres@127.0.0.1:<port>/sop */
  url: string;
  port: number;
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (if running) and deletes its directory. */
  destroy(): Promise<void>;
  log(): string;
};

/** The newest installed PostgreSQL's bin directory (PG_BIN overrides). */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    : [];
  const newest = versions.sort((x, y) => Number(y) - Number(x))[0];
  if (!newest)
    throw new Error(`No PostgreSQL server binaries under ${root} (initdb, pg_ctl); set PG_BIN to their directory.`);
  return path.join(root, newest, "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the postgres OS user when we are root. */
async function pg(bin: string, args: string[]): Promise<string> {
  const [file, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const { stdout } = await run(file, argv, { timeout: 60_000 });
  return stdout;
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), "sop-pg-"));
  if (isRoot()) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const port = await freePort();
  await pg(path.join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let running = false;
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/sop`,
    port,
    async start() {
      await pg(path.join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", logFile, "-w", "-t", "30", "start"]);
      running = true;
    },
    async stop(mode = "fast") {
      await pg(path.join(bin, "pg_ctl"), ["-D", data, "-m", mode, "-w", "-t", "30", "stop"]);
      running = false;
    },
    async destroy() {
      try {
        if (running) await cluster.stop("immediate");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
  };
  try {
    await cluster.start();
    await pg(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "sop"]);
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

/** Applies the app's migrations to the cluster, as `npm run db:migrate` would. */
export async function migrateCluster(url: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: path.resolve("db/migrations") });
    const { prepareJobs } = await import("@/server/jobs/boss");
    await prepareJobs(drizzle({ client }) as never);
  } finally {
    await client.end({ timeout: 5 });
  }
}
