import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { closeDb } from "@/db/client";
import { migrate } from "@/db/migrate";
import { env } from "@/server/env";

// Production start: apply migrations (advisory-locked on PostgreSQL), then serve the built app.
const port = process.env.PORT ?? "3000";
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const { AUTH_SECRET } = env();
await migrate();
await closeDb();
// Node runs Next directly (no npx in between) so signals reach it and it can drain in-flight requests.
const child = spawn(process.execPath, [nextBin, "start", "--port", port, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: {
    ...process.env,
    AUTH_SECRET,
    NEXTAUTH_SECRET: AUTH_SECRET,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
