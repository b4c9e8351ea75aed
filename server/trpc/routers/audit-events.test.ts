import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, type TestUser } from "@/test/helpers";
import { callerFor } from "@/test/trpc";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof TRPCError ? error.code : error),
  );

describe("tRPC auditEvents", () => {
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let staff: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
    member = await createTestUser({ accountId: owner.accountId, role: "member" });
    stranger = await createTestUser();
    staff = await createTestUser({ staff: true });
    await (await callerFor(owner)).apiKeys.create({ accountId: owner.accountId, name: "Audited" });
  });

  it("shows owners and staff who did what, newest first", async () => {
    for (const [user, options] of [
      [owner, {}],
      [staff, { staff: true }],
    ] as const) {
      const events = await (await callerFor(user, options)).auditEvents.list({ accountId: owner.accountId });
      expect(events.items[0]).toMatchObject({
        action: "api_key.created",
        actor: owner.email,
        details: { name: "Audited" },
      });
    }
  });

  it("refuses members (FORBIDDEN) and other accounts (NOT_FOUND)", async () => {
    expect(await codeOf((await callerFor(member)).auditEvents.list({ accountId: owner.accountId }))).toBe("FORBIDDEN");
    expect(await codeOf((await callerFor(stranger)).auditEvents.list({ accountId: owner.accountId }))).toBe(
      "NOT_FOUND",
    );
  });
});
