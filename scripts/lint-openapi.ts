import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openApiJson } from "@/server/openapi/document";

/**
 * Lints the OpenAPI document exactly as `/api/v2/openapi.json` serves it, with Redocly's `recommended`
 * ruleset (redocly.yaml). Exits with Redocly's status, so CI fails on any error.
 */
const dir = mkdtempSync(path.join(tmpdir(), "openapi-"));
try {
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, openApiJson(process.env.PUBLIC_URL ?? "http://127.0.0.1:3000"));
  const result = spawnSync("redocly", ["lint", file, "--config", "redocly.yaml", ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
