import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { closeDb } from "@/db/client";
import { migrate } from "@/db/migrate";
import { env } from "@/server/env";
import { logger } from "@/server/observability/logger";

// Production start: apply migrations (advisory-locked on PostgreSQL), then serve the built app.
const port = process.env.PORT ?? "3000";
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const { AUTH_SECRET, SECRETS_KEY } = env();
await migrate();
await closeDb();
// Node runs Next directly (no npx in between) so signals reach it and it can drain in-flight requests.
const child = spawn(process.execPath, [nextBin, "start", "--port", port, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: {
    ...process.env,
    AUTH_SECRET,
    SECRETS_KEY,
    NEXTAUTH_SECRET: AUTH_SECRET,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
  },
});
// SIGTERM: Next stops taking connections and lets the requests in flight finish, then exits 143; that is the
// orderly end asked for, so it is reported as 0. Requests still running after SHUTDOWN_TIMEOUT_MS (default 30 s)
// are cut: the child is killed and the exit is 1.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    child.kill(signal);
    setTimeout(
      () => {
        logger.error({ signal }, "requests still running at the shutdown deadline: stopping the server");
        child.kill("SIGKILL");
      },
      Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 30_000),
    ).unref();
  });
child.on("exit", (code, signal) => {
  const orderly = stopping && (code === 0 || code === 130 || code === 143) && signal === null;
  process.exit(orderly ? 0 : (code ?? 1));
});
