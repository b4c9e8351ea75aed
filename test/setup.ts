import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/db/client";

const templateUrl = inject("databaseUrl");
const snapshot = inject("pgliteSnapshot");
const adminUrl = inject("adminUrl");
if (templateUrl && adminUrl) process.env.DATABASE_URL = await workerDatabase(templateUrl, adminUrl);
else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_SNAPSHOT = snapshot ?? "";
}
process.env.AUTH_SECRET = "test-secret-test-secret-test-secret-0123456789";
// Fixed, so child processes (workers, the route server) open what this process sealed.
process.env.SECRETS_KEY = "dGVzdC1zZWNyZXRzLWtleS0zMi1ieXRlcy1sb25nISE=";
// The platform's origin for links (labelUrl) and the CSRF check, as production sets it; never a request's Host.
process.env.PUBLIC_URL = "http://localhost";
// Real couriers are never called from tests: a test points these at its own fake; anything else (a worker of another
// test file polling orders it did not create) reaches a closed loopback port, never the internet.
process.env.COURIER_PACKETA_URL ??= "http://127.0.0.1:9/api/rest";
process.env.COURIER_PPL_URL ??= "http://127.0.0.1:9/ppl";
process.env.COURIER_PPL_TEST_URL ??= "http://127.0.0.1:9/ppl-test";
// The test partners' keys that mean "no limit" allow 100,000 a minute, and the fuzz suites send thousands of orders in
// a minute from one account: the account ceiling is tested where a file sets its own (request-limits.test.ts).
process.env.ACCOUNT_RATE_LIMIT_PER_MINUTE ??= "10000000";
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "sop-test-"));

/**
 * This worker's own copy of the run's migrated database (global-setup.ts), made by the first file the worker runs;
 * later files of the same worker reuse it, as every file shared one database before files ran in parallel.
 */
async function workerDatabase(template: string, adminUrl: string): Promise<string> {
  const url = new URL(template);
  const source = url.pathname.slice(1);
  const name = `${source}_w${process.env.VITEST_POOL_ID ?? "1"}`;
  const { default: postgres } = await import("postgres");
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!exists) await admin.unsafe(`create database "${name}" template "${source}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  await closeDb();
});
