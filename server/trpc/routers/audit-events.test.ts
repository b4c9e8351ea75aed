import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, codeOf, suiteUsers } from "@/test/trpc";

describe("tRPC auditEvents", () => {
  const users = suiteUsers();
  beforeAll(async () => {
    await (await callerFor(users.owner)).apiKeys.create({ accountId: users.owner.accountId, name: "Audited" });
  });

  it("shows owners and staff who did what, newest first", async () => {
    for (const [user, options] of [
      [users.owner, {}],
      [users.staff, { staff: true }],
    ] as const) {
      const events = await (await callerFor(user, options)).auditEvents.list({ accountId: users.owner.accountId });
      expect(events.items[0]).toMatchObject({
        action: "api_key.created",
        actor: users.owner.email,
        details: { name: "Audited" },
      });
    }
  });

  it("refuses members (FORBIDDEN) and other accounts (NOT_FOUND)", async () => {
    expect(await codeOf((await callerFor(users.member)).auditEvents.list({ accountId: users.owner.accountId }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf((await callerFor(users.stranger)).auditEvents.list({ accountId: users.owner.accountId }))).toBe(
      "NOT_FOUND",
    );
  });
});
