import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { e2eEnvironment } from "./environment";

/** What the production build is made of: a change to any of these after the build makes the build stale. */
const BUILD_INPUTS = ["app", "components", "lib", "server", "trpc", "db/schema", "proxy.ts", "instrumentation.ts"];
const BUILD_FILES = /\.(ts|tsx|css|mjs|json)$/;

/** The newest modification time among the build's inputs (unit tests and fixtures aside), in ms. */
function newestInput(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return BUILD_FILES.test(entry) && !entry.endsWith(".test.ts") ? stat.mtimeMs : 0;
  return Math.max(0, ...readdirSync(entry).map((name) => newestInput(path.join(entry, name))));
}

// Playwright's webServer: the production build, a fresh database, then the server (scripts/start.ts migrates first).
// E2E_SKIP_BUILD=1 tests whatever .next holds (e.g. while someone else's half-done change would break a build).
const built = existsSync(".next/BUILD_ID") ? statSync(".next/BUILD_ID").mtimeMs : null;
const stale = built !== null && Math.max(...BUILD_INPUTS.map(newestInput)) > built;
if (built === null || (stale && process.env.E2E_SKIP_BUILD !== "1")) {
  console.log(
    built === null
      ? "No production build in .next: running next build"
      : "Sources changed since the last build: running next build",
  );
  execFileSync("npx", ["next", "build"], { stdio: "inherit" });
}

// Created only once the build exists: Playwright skips the global teardown (which drops it) when the server never starts.
const { serverUrl, databaseName } = e2eEnvironment();
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${databaseName}"`);
await admin.end();
console.log(`e2e database ${databaseName}`);

await import("../scripts/start");
