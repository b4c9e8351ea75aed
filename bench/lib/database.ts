import postgres from "postgres";

/** The server the bench database is created on: BENCH_ADMIN_URL, else DATABASE_URL (as CI sets it), else local. */
export const ADMIN_URL =
  process.env.BENCH_ADMIN_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** `sop_bench_<timestamp>` on the admin URL's server: created here, dropped by `dropDatabase`. */
export async function createDatabase(): Promise<{ name: string; url: string }> {
  const name = `sop_bench_${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${process.pid}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

export async function serverVersion(sql: postgres.Sql): Promise<string> {
  const [row] = await sql<{ v: string }[]>`select current_setting('server_version') as v`;
  return row!.v;
}
