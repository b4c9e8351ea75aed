import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, type TestUser } from "@/test/helpers";
import { callerFor } from "@/test/trpc";

describe("tRPC accounts", () => {
  let owner: TestUser;
  let member: TestUser;
  let staff: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
    member = await createTestUser({ accountId: owner.accountId, role: "member" });
    staff = await createTestUser({ staff: true });
  });

  it("lists the user's own accounts with their role", async () => {
    const mine = await (await callerFor(member)).accounts.mine();
    expect(mine.map((a) => [a.id, a.role])).toEqual([[owner.accountId, "member"]]);
    expect((await (await callerFor(owner)).accounts.mine()).map((a) => [a.id, a.role])).toEqual([
      [owner.accountId, "owner"],
    ]);
  });

  it("lists every account for staff, their own first, and refuses the list to partners", async () => {
    const all = await (await callerFor(staff, { staff: true })).accounts.all();
    expect(all[0]!.id).toBe(staff.accountId);
    expect(all.map((a) => a.id)).toContain(owner.accountId);
    expect(all.every((a) => a.role === "staff")).toBe(true);
    const refused = await (await callerFor(owner)).accounts.all().catch((e: unknown) => e);
    expect((refused as TRPCError).code).toBe("FORBIDDEN");
  });

  it("refuses a session whose user no longer exists", async () => {
    const ghost = { userId: "00000000-0000-4000-8000-000000000000", email: "ghost@test.example" };
    const refused = await (await callerFor(ghost)).accounts.mine().catch((e: unknown) => e);
    expect((refused as TRPCError).code).toBe("UNAUTHORIZED");
  });
});
