import { TRPCError } from "@trpc/server";
import { and, count, eq, isNull } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { MAX_ACTIVE_KEYS_PER_KIND } from "@/server/services/api-keys/create-api-key";
import { createTestUser } from "@/test/helpers";
import { callerFor, codeOf, failure, suiteUsers } from "@/test/trpc";

/** Active keys of one kind put straight into the table: what the cap counts, without spending the creation limit. */
async function insertActiveKeys(accountId: string, kind: "secret" | "publishable", n: number) {
  const db = await getDb();
  await db.insert(apiKeys).values(
    Array.from({ length: n }, (_, i) => ({
      accountId,
      name: `seeded ${kind} ${i}`,
      keyHash: `seeded-${kind}-${accountId}-${i}`,
      suffix: "xxxx",
      kind,
      allowedOrigins: kind === "publishable" ? ["https://shop.example"] : [],
      permissions: [],
    })),
  );
}

const activeKeys = async (accountId: string) => {
  const [row] = await (
    await getDb()
  )
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  return row!.n;
};

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

  describe("limits on creating keys", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it(`caps an account at ${MAX_ACTIVE_KEYS_PER_KIND} active keys of each kind (CONFLICT naming it); revoked ones do not count`, async () => {
      const owner = await createTestUser();
      await insertActiveKeys(owner.accountId, "secret", MAX_ACTIVE_KEYS_PER_KIND - 1);
      const api = await callerFor(owner);
      const last = await api.apiKeys.create({ accountId: owner.accountId, name: "fiftieth" });
      const refused = await failure(api.apiKeys.create({ accountId: owner.accountId, name: "one too many" }));
      expect(refused.code).toBe("CONFLICT");
      expect(refused.message).toBe(
        `An account can have at most ${MAX_ACTIVE_KEYS_PER_KIND} active secret API keys; revoke one before creating another.`,
      );
      expect(await activeKeys(owner.accountId)).toBe(MAX_ACTIVE_KEYS_PER_KIND);
      // The publishable keys have a cap of their own.
      const widget = {
        accountId: owner.accountId,
        kind: "publishable" as const,
        allowedOrigins: ["https://shop.example"],
      };
      await api.apiKeys.create({ ...widget, name: "widget" });
      await insertActiveKeys(owner.accountId, "publishable", MAX_ACTIVE_KEYS_PER_KIND - 1);
      expect((await failure(api.apiKeys.create({ ...widget, name: "widget 51" }))).message).toContain(
        `at most ${MAX_ACTIVE_KEYS_PER_KIND} active publishable API keys`,
      );
      await api.apiKeys.revoke({ id: last.id });
      await api.apiKeys.create({ accountId: owner.accountId, name: "in the freed place" });
    });

    it("lets only one of two creations at once take an account's last place", async () => {
      const owner = await createTestUser();
      await insertActiveKeys(owner.accountId, "secret", MAX_ACTIVE_KEYS_PER_KIND - 1);
      const api = await callerFor(owner);
      const outcomes = await Promise.allSettled([
        api.apiKeys.create({ accountId: owner.accountId, name: "racer 1" }),
        api.apiKeys.create({ accountId: owner.accountId, name: "racer 2" }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(await activeKeys(owner.accountId)).toBe(MAX_ACTIVE_KEYS_PER_KIND);
    });

    it("throttles creation per user and per account (TOO_MANY_REQUESTS); a refused creation makes no key", async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
      const owner = await createTestUser();
      const secondOwner = await createTestUser({ accountId: owner.accountId, role: "owner" });
      const thirdOwner = await createTestUser({ accountId: owner.accountId, role: "owner" });
      const api = await callerFor(owner);
      for (let i = 0; i < 10; i++) await api.apiKeys.create({ accountId: owner.accountId, name: `k${i}` });
      const byUser = await failure(api.apiKeys.create({ accountId: owner.accountId, name: "eleventh" }));
      expect(byUser.code).toBe("TOO_MANY_REQUESTS");
      expect(byUser.message).toContain("Too many API keys created by this user");
      // Other owners of the same account have limits of their own, up to the account's.
      const second = await callerFor(secondOwner);
      for (let i = 0; i < 10; i++) await second.apiKeys.create({ accountId: owner.accountId, name: `s${i}` });
      const third = await callerFor(thirdOwner);
      const byAccount = await failure(third.apiKeys.create({ accountId: owner.accountId, name: "twenty-first" }));
      expect(byAccount.message).toContain("Too many API keys created for this account");
      expect(await activeKeys(owner.accountId)).toBe(20);
      // A minute later the account may create again.
      vi.setSystemTime(Date.now() + 60_000);
      await api.apiKeys.create({ accountId: owner.accountId, name: "next minute" });
    });

    it("does not let a stranger spend an account's creation limit", async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
      const owner = await createTestUser();
      const stranger = await callerFor(await createTestUser());
      for (let i = 0; i < 25; i++)
        expect(await codeOf(stranger.apiKeys.create({ accountId: owner.accountId, name: `x${i}` }))).toBe("NOT_FOUND");
      await (await callerFor(owner)).apiKeys.create({ accountId: owner.accountId, name: "mine" });
    });
  });
});
