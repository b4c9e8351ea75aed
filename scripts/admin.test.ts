import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

/** Runs the admin CLI as a partner would, against the test database (or a throwaway PGlite directory). */
async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "scripts/admin.ts", ...args], {
      env: { ...process.env, PGLITE_SNAPSHOT: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("npm run admin -- user:create", () => {
  it("creates an account and user, prints one line of JSON, and joins another user with --account-id", async () => {
    const email = `cli-${randomUUID()}@test.example`;
    const created = await admin(
      "user:create",
      "--email",
      email,
      "--password",
      "cli-password-1",
      "--account",
      "CLI Shop",
    );
    expect(created.code).toBe(0);
    const line = created.stdout.trim().split("\n").at(-1)!;
    const result = JSON.parse(line) as { userId: string; accountId: string };
    expect(result).toEqual({ userId: expect.any(String), accountId: expect.any(String) });

    const joined = await admin(
      "user:create",
      "--email",
      `staff-${email}`,
      "--password",
      "cli-password-2",
      "--account-id",
      result.accountId,
      "--staff",
    );
    expect(joined.code).toBe(0);
    expect(JSON.parse(joined.stdout.trim().split("\n").at(-1)!)).toMatchObject({ accountId: result.accountId });
  }, 60_000);

  it("fails with a clear message on bad input", async () => {
    const failed = await admin("user:create", "--email", "not-an-email", "--password", "x", "--account", "A");
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/email/);
  }, 60_000);
});
