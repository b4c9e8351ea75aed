import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

/** `npm start` (scripts/start.ts) in production with only the given variables besides PATH and HOME. */
async function start(variables: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        // A database that does not exist: a start that got past its checks would fail there, not hang.
        DATABASE_URL: "postgres://postgres@127.0.0.1:9/none",
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "sop-start-")),
        ...variables,
      },
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const complete = {
  PUBLIC_URL: "https://ship.example",
  AUTH_SECRET: "start-test-secret-start-test-secret-0123",
  SECRETS_KEY: "c3RhcnQtdGVzdC1zZWNyZXRzLWtleS0zMi1ieXRlcyE=",
};

describe("npm start in production", () => {
  it("refuses to start without the variables production requires, naming each one", async () => {
    const none = await start({});
    expect(none.code).not.toBe(0);
    for (const name of ["PUBLIC_URL", "AUTH_SECRET", "SECRETS_KEY"]) expect(none.output).toContain(name);

    const noPublicUrl = await start({ AUTH_SECRET: complete.AUTH_SECRET, SECRETS_KEY: complete.SECRETS_KEY });
    expect(noPublicUrl.code).not.toBe(0);
    expect(noPublicUrl.output).toMatch(/required in production: PUBLIC_URL/);
  }, 120_000);

  it("refuses a PUBLIC_URL that is not an origin", async () => {
    const withPath = await start({ ...complete, PUBLIC_URL: "https://ship.example/app?x=1" });
    expect(withPath.code).not.toBe(0);
    expect(withPath.output).toMatch(/PUBLIC_URL must be an origin only/);
    const ftp = await start({ ...complete, PUBLIC_URL: "ftp://ship.example" });
    expect(ftp.output).toMatch(/PUBLIC_URL must be an http/);
  }, 120_000);
});
