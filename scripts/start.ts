import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { closeDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { env } from "@/server/env";
import { logger } from "@/server/observability/logger";

// Production start: apply migrations (advisory-locked on PostgreSQL), then serve the built app. env() refuses to go
// on without the variables production requires (PUBLIC_URL, AUTH_SECRET, SECRETS_KEY: docs/production.md).
const port = process.env.PORT ?? "3000";
const serve = fileURLToPath(new URL("./serve.ts", import.meta.url));
const { AUTH_SECRET, SECRETS_KEY, WEBHOOK_TIMEOUT_MS } = env();
await migrate();
await closeDb();
// Node runs the server directly (no npx in between) so signals reach it and it can drain in-flight requests. The
// server is ours (scripts/serve.ts): Next's handler behind a node:http server that takes the client's address from
// the socket and TRUSTED_PROXIES.
const child = spawn(process.execPath, ["--import", "tsx", serve, "--port", port, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: {
    ...process.env,
    AUTH_SECRET,
    SECRETS_KEY,
    NEXTAUTH_SECRET: AUTH_SECRET,
    // next-auth's origin (NEXTAUTH_URL) is PUBLIC_URL: env() sets it in the server's process, however it was started.
  },
});
// The server process owns SIGTERM and SIGINT (server/jobs/web-process.ts): readiness turns 503, its worker lets the
// webhook attempts in flight finish, then the server stops taking connections, lets the requests in flight finish (at
// most SHUTDOWN_TIMEOUT_MS, default 30 s) and exits 143 (130 after SIGINT): that is the orderly end asked for, so it
// is reported as 0. This process only passes the signal on (a later one too: the server then exits at once), and
// kills the server if it is still there well past those bounds (exit 1).
const backstopMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 30_000) + 2 * (WEBHOOK_TIMEOUT_MS + 5000) + 10_000;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    child.kill(signal);
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      logger.error({ signal }, "the server is still running past the shutdown deadline: killing it");
      child.kill("SIGKILL");
    }, backstopMs).unref();
  });
child.on("exit", (code, signal) => {
  const orderly = stopping && (code === 0 || code === 130 || code === 143) && signal === null;
  process.exit(orderly ? 0 : (code ?? 1));
});
