import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { callerFor, suiteUsers } from "@/test/trpc";

describe("tRPC accounts", () => {
  const users = suiteUsers();

  it("lists the user's own accounts with their role", async () => {
    const mine = await (await callerFor(users.member)).accounts.mine();
    expect(mine.map((a) => [a.id, a.role])).toEqual([[users.owner.accountId, "member"]]);
    expect((await (await callerFor(users.owner)).accounts.mine()).map((a) => [a.id, a.role])).toEqual([
      [users.owner.accountId, "owner"],
    ]);
  });

  it("lists every account for staff, their own first, and refuses the list to partners", async () => {
    const all = await (await callerFor(users.staff, { staff: true })).accounts.all();
    expect(all[0]!.id).toBe(users.staff.accountId);
    expect(all.map((a) => a.id)).toContain(users.owner.accountId);
    expect(all.every((a) => a.role === "staff")).toBe(true);
    const refused = await (await callerFor(users.owner)).accounts.all().catch((e: unknown) => e);
    expect((refused as TRPCError).code).toBe("FORBIDDEN");
  });

  it("refuses a session whose user no longer exists", async () => {
    const ghost = { userId: "00000000-0000-4000-8000-000000000000", email: "ghost@test.example" };
    const refused = await (await callerFor(ghost)).accounts.mine().catch((e: unknown) => e);
    expect((refused as TRPCError).code).toBe("UNAUTHORIZED");
  });
});
