import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import postgres from "postgres";
import { e2eEnvironment } from "./environment";

// Playwright's webServer: the production build, a fresh database, then the server (scripts/start.ts migrates first).
if (!existsSync(".next/BUILD_ID")) {
  // A first run on a fresh checkout; after changing code, run `npm run build` yourself or the old build is tested.
  console.log("No production build in .next: running next build");
  execFileSync("npx", ["next", "build"], { stdio: "inherit" });
}

// Created only once the build exists: Playwright skips the global teardown (which drops it) when the server never starts.
const { serverUrl, databaseName } = e2eEnvironment();
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${databaseName}"`);
await admin.end();
console.log(`e2e database ${databaseName}`);

await import("../scripts/start");
