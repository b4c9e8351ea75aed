import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { callerFor, codeOf, suiteUsers } from "@/test/trpc";

describe("tRPC apiKeys", () => {
  const users = suiteUsers();

  it("creates a key shown in full once, lists it masked, updates and revokes it", async () => {
    const api = await callerFor(users.owner);
    const created = await api.apiKeys.create({
      accountId: users.owner.accountId,
      name: "Shop",
      preventDuplicateOrders: true,
    });
    expect(created.key).toMatch(/^svc_[0-9A-Za-z]{40,}$/);
    const listed = (await api.apiKeys.list({ accountId: users.owner.accountId })).items.find(
      (k) => k.id === created.id,
    )!;
    expect(listed.key).toBe(`svc_****${created.key.slice(-4)}`);
    expect(listed.preventDuplicateOrders).toBe(true);

    const updated = await api.apiKeys.update({
      id: created.id,
      preventDuplicateOrders: false,
      permissions: ["labels:read"],
    });
    expect(updated).toMatchObject({ preventDuplicateOrders: false, permissions: ["labels:read"] });

    await api.apiKeys.revoke({ id: created.id });
    const after = await api.apiKeys.list({ accountId: users.owner.accountId });
    expect(after.items.map((k) => k.id)).not.toContain(created.id);
  });

  it("answers NOT_FOUND for another account's keys, whatever the operation", async () => {
    const key = await (
      await callerFor(users.owner)
    ).apiKeys.create({ accountId: users.owner.accountId, name: "Owner's" });
    const api = await callerFor(users.stranger);
    expect(await codeOf(api.apiKeys.list({ accountId: users.owner.accountId }))).toBe("NOT_FOUND");
    expect(await codeOf(api.apiKeys.create({ accountId: users.owner.accountId, name: "Intruder" }))).toBe("NOT_FOUND");
    expect(await codeOf(api.apiKeys.update({ id: key.id, name: "Renamed" }))).toBe("NOT_FOUND");
    expect(await codeOf(api.apiKeys.revoke({ id: key.id }))).toBe("NOT_FOUND");
    expect(await codeOf(api.apiKeys.list({ accountId: "not-a-uuid" }))).toBe("NOT_FOUND");
  });

  it("lets a member read the account's keys but not change them", async () => {
    const key = await (
      await callerFor(users.owner)
    ).apiKeys.create({ accountId: users.owner.accountId, name: "Shared" });
    const api = await callerFor(users.member);
    const list = await api.apiKeys.list({ accountId: users.owner.accountId });
    expect(list.items.map((k) => k.id)).toContain(key.id);
    expect(await codeOf(api.apiKeys.create({ accountId: users.owner.accountId, name: "Member's" }))).toBe("FORBIDDEN");
    expect(await codeOf(api.apiKeys.revoke({ id: key.id }))).toBe("FORBIDDEN");
  });

  it("lets staff list and manage any account's keys", async () => {
    const key = await (
      await callerFor(users.owner)
    ).apiKeys.create({ accountId: users.owner.accountId, name: "Supported" });
    const api = await callerFor(users.staff, { staff: true });
    const list = await api.apiKeys.list({ accountId: users.owner.accountId });
    expect(list.items.map((k) => k.id)).toContain(key.id);
    await api.apiKeys.update({ id: key.id, name: "Renamed by support" });
  });

  it("refuses signed-out callers", async () => {
    const api = await callerFor(null);
    expect(await codeOf(api.apiKeys.list({ accountId: users.owner.accountId }))).toBe("UNAUTHORIZED");
  });

  it("names the field at fault when the name is invalid", async () => {
    const api = await callerFor(users.owner);
    const error = await api.apiKeys
      .create({ accountId: users.owner.accountId, name: "x".repeat(101) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
  });
});
