import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/db/client";

const databaseUrl = inject("databaseUrl");
const snapshot = inject("pgliteSnapshot");
if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_SNAPSHOT = snapshot ?? "";
}
process.env.AUTH_SECRET = "test-secret-test-secret-test-secret-0123456789";
// Fixed, so child processes (workers, the route server) open what this process sealed.
process.env.SECRETS_KEY = "dGVzdC1zZWNyZXRzLWtleS0zMi1ieXRlcy1sb25nISE=";
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "sop-test-"));

afterAll(async () => {
  await closeDb();
});
