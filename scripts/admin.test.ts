import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents, memberships, users } from "@/db/schema";
import { createUser } from "@/server/services/accounts/create-user";

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
    expect(result).toEqual({
      userId: expect.any(String),
      accountId: expect.any(String),
      role: "owner",
      createdUser: true,
    });

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

const lastLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;

/** The account's audit entries the CLI made: no actor user, `via: "admin-cli"`, no address. */
async function cliAudit(accountId: string) {
  const rows = await (
    await getDb()
  )
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.accountId, accountId))
    .orderBy(auditEvents.createdAt);
  for (const row of rows) expect(row).toMatchObject({ actorUserId: null, ip: null, details: { via: "admin-cli" } });
  return rows.map((row) => ({ action: row.action, targetId: row.targetId, details: row.details }));
}

/** What `user:create` does, in this process: the set-up of a test that spawns the CLI for what it checks. */
const cliCreate = async (input: Parameters<typeof createUser>[1]) =>
  createUser(await getDb(), input, { audit: "admin-cli" });

async function userRow(email: string) {
  const [row] = await (await getDb()).select().from(users).where(eq(users.email, email));
  return row!;
}

// The CLI runs as a process of its own: it meets this test's rows only in a PostgreSQL database (the embedded PGlite
// of a test lives in the test's own memory).
describe.runIf(Boolean(process.env.DATABASE_URL))("npm run admin on an existing user", () => {
  it("refuses what user:create would drop, naming the option and the command that changes it, and changes nothing", async () => {
    const email = `existing-${randomUUID()}@test.example`;
    const shop = await cliCreate({ email, password: "first-password", accountName: "Shop" });
    const other = await cliCreate({ email: `other-${email}`, password: "other-password", accountName: "Other shop" });
    const before = await userRow(email);
    const refusals = [
      [["--password", "new-password-1"], "--password", "user:password"],
      [["--staff"], "--staff", "user:staff"],
      [["--name", "Renamed"], "--name", null],
    ] as const;
    for (const [extra, option, command] of refusals) {
      const refused = await admin("user:create", "--email", email, "--account-id", other.accountId, ...extra);
      expect(refused.code, option).toBe(1);
      expect(refused.stderr, option).toContain(`${option}:`);
      if (command) expect(refused.stderr, option).toContain(`npm run admin -- ${command}`);
    }
    // Already an owner of the shop: user:create does not change a role.
    const again = await admin("user:create", "--email", email, "--account-id", shop.accountId, "--role", "member");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("--role:");
    expect(again.stderr).toContain("npm run admin -- user:role");
    expect(await userRow(email)).toEqual(before);
    const db = await getDb();
    expect(
      await db
        .select({ accountId: memberships.accountId, role: memberships.role })
        .from(memberships)
        .where(eq(memberships.userId, before.id)),
    ).toEqual([{ accountId: shop.accountId, role: "owner" }]);

    // Without options of their own, an existing user joins another account, and the audit trail says the CLI did it.
    const joined = await admin("user:create", "--email", email, "--account-id", other.accountId);
    expect(joined.code).toBe(0);
    expect(lastLine(joined.stdout)).toEqual({
      userId: before.id,
      accountId: other.accountId,
      role: "member",
      createdUser: false,
    });
    expect(await cliAudit(shop.accountId)).toEqual([
      {
        action: "user.created",
        targetId: before.id,
        details: { email, role: "owner", staff: false, via: "admin-cli" },
      },
    ]);
    expect((await cliAudit(other.accountId)).map((e) => e.action)).toEqual(["user.created", "membership.created"]);
    expect((await cliAudit(other.accountId))[1]).toEqual({
      action: "membership.created",
      targetId: before.id,
      details: { email, role: "member", via: "admin-cli" },
    });
  }, 120_000);

  it("changes a role and staff rights with their own commands, each change in the audit trail with the CLI as actor", async () => {
    const email = `roles-${randomUUID()}@test.example`;
    const { accountId } = await cliCreate({ email, password: "first-password", accountName: "Shop" });
    const only = await admin("user:role", "--email", email, "--account-id", accountId, "--role", "member");
    expect(only.code).toBe(1);
    expect(only.stderr).toContain("only owner");

    const partner = `partner-${email}`;
    await cliCreate({ email: partner, password: "partner-password", accountId });
    const promoted = await admin("user:role", "--email", partner, "--account-id", accountId, "--role", "owner");
    expect(promoted.code).toBe(0);
    expect(lastLine(promoted.stdout)).toMatchObject({ role: "owner", previousRole: "member", changed: true });
    const demoted = await admin("user:role", "--email", email, "--account-id", accountId, "--role", "member");
    expect(demoted.code).toBe(0);

    const granted = await admin("user:staff", "--email", partner, "--grant");
    expect(granted.code).toBe(0);
    expect(lastLine(granted.stdout)).toMatchObject({ staff: true, changed: true });
    expect((await userRow(partner)).isStaff).toBe(true);
    const neither = await admin("user:staff", "--email", partner);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain("--grant or --revoke");

    const partnerId = (await userRow(partner)).id;
    expect(await cliAudit(accountId)).toEqual([
      expect.objectContaining({ action: "user.created" }),
      { action: "user.created", targetId: partnerId, details: expect.objectContaining({ role: "member" }) },
      {
        action: "membership.role_changed",
        targetId: partnerId,
        details: { email: partner, from: "member", to: "owner", via: "admin-cli" },
      },
      expect.objectContaining({
        action: "membership.role_changed",
        details: expect.objectContaining({ to: "member" }),
      }),
      { action: "user.staff_granted", targetId: partnerId, details: { email: partner, via: "admin-cli" } },
    ]);
    const [member] = await (
      await getDb()
    )
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, partnerId)));
    expect(member!.role).toBe("owner");
  }, 120_000);
});
