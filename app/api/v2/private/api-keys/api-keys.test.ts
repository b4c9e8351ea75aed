import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, auditEvents } from "@/db/schema";
import { hashApiKey } from "@/server/auth/api-key-secret";
import { MAX_ACTIVE_KEYS_PER_KIND } from "@/server/services/api-keys/create-api-key";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { callerFor } from "@/test/trpc";
import * as collection from "./route";
import * as item from "./[id]/route";

type Key = {
  id: string;
  name: string;
  key: string;
  created: string;
  lastUsed?: string | null;
  permissions: string[];
  preventDuplicateOrders: boolean;
};
type Envelope<T> = {
  page: number;
  pageSize: number;
  totalPages: number;
  nextPage: boolean;
  previousPage: boolean;
  itemsCount: number;
  items: T[];
};

const createKey = (user: TestUser, body: Record<string, unknown>) =>
  call(collection.POST, "/api/v2/private/api-keys", {
    token: user.token,
    body: { accountId: user.accountId, ...body },
  });

describe("private API: api keys", () => {
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
    stranger = await createTestUser();
  });

  it("creates a key with every permission, shows it once, stores only its hash", async () => {
    const response = await createKey(owner, { name: "Checkout" });
    expect(response.status).toBe(201);
    const key = await readJson<Key>(response);
    expect(key.key).toMatch(/^svc_[0-9A-Za-z]{40,}$/);
    expect(key.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(key.permissions.sort()).toEqual(
      [
        "configurations:read",
        "events:read",
        "labels:read",
        "shipping-orders:read",
        "shipping-orders:validate",
        "shipping-orders:write",
        "statistics:read",
      ].sort(),
    );
    expect(key.preventDuplicateOrders).toBe(false);
    const db = await getDb();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.keyHash).toBe(hashApiKey(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);

    const list = await readJson<Envelope<Key>>(
      await call(collection.GET, `/api/v2/private/api-keys?accountId=${owner.accountId}`, { token: owner.token }),
    );
    const listed = list.items.find((k) => k.id === key.id)!;
    expect(listed.key).toBe(`svc_****${key.key.slice(-4)}`);
    expect(listed.lastUsed).toBeNull();
    expect(JSON.stringify(list)).not.toContain(key.key);
  });

  it("keeps preventDuplicateOrders as given", async () => {
    const key = await readJson<Key>(await createKey(owner, { name: "ERP", preventDuplicateOrders: true }));
    expect(key.preventDuplicateOrders).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["too long", "x".repeat(101)],
    ["not a string", 42],
  ])("refuses a %s name with 400 naming the field and stores nothing", async (_, name) => {
    const db = await getDb();
    const before = await db.select().from(apiKeys).where(eq(apiKeys.accountId, owner.accountId));
    const response = await createKey(owner, { name });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = await readJson<{ status: number; errors: { field: string }[] }>(response);
    expect(problem.status).toBe(400);
    expect(problem.errors.map((e) => e.field)).toContain("name");
    const after = await db.select().from(apiKeys).where(eq(apiKeys.accountId, owner.accountId));
    expect(after.length).toBe(before.length);
  });

  it("accepts names of exactly 1 and 100 characters", async () => {
    expect((await createKey(owner, { name: "a" })).status).toBe(201);
    expect((await createKey(owner, { name: "b".repeat(100) })).status).toBe(201);
  });

  it("answers 404 for another account's accountId, on list and create", async () => {
    expect(
      (await call(collection.GET, `/api/v2/private/api-keys?accountId=${owner.accountId}`, { token: stranger.token }))
        .status,
    ).toBe(404);
    expect((await createKey({ ...stranger, accountId: owner.accountId }, { name: "x" })).status).toBe(404);
    expect(
      (await call(collection.GET, `/api/v2/private/api-keys?accountId=not-a-uuid`, { token: stranger.token })).status,
    ).toBe(404);
  });

  it("lets staff act on any account", async () => {
    const staff = await createTestUser({ staff: true });
    const response = await call(collection.POST, "/api/v2/private/api-keys", {
      token: staff.token,
      body: { accountId: owner.accountId, name: "By staff" },
    });
    expect(response.status).toBe(201);
    const list = await call(collection.GET, `/api/v2/private/api-keys?accountId=${owner.accountId}&pageSize=50`, {
      token: staff.token,
    });
    expect(list.status).toBe(200);
  });

  it("forbids members from managing keys, but lets them list", async () => {
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    expect((await createKey({ ...member, accountId: owner.accountId }, { name: "nope" })).status).toBe(403);
    expect(
      (await call(collection.GET, `/api/v2/private/api-keys?accountId=${owner.accountId}`, { token: member.token }))
        .status,
    ).toBe(200);
  });

  it("paginates newest first with the envelope, and refuses out-of-range paging", async () => {
    const user = await createTestUser();
    for (const name of ["k1", "k2", "k3"]) await createKey(user, { name });
    const page1 = await readJson<Envelope<Key>>(
      await call(collection.GET, `/api/v2/private/api-keys?accountId=${user.accountId}&pageSize=2`, {
        token: user.token,
      }),
    );
    expect(page1).toMatchObject({
      page: 1,
      pageSize: 2,
      totalPages: 2,
      nextPage: true,
      previousPage: false,
      itemsCount: 3,
    });
    expect(page1.items.map((k) => k.name)).toEqual(["k3", "k2"]);
    const page2 = await readJson<Envelope<Key>>(
      await call(collection.GET, `/api/v2/private/api-keys?accountId=${user.accountId}&pageSize=2&page=2`, {
        token: user.token,
      }),
    );
    expect(page2).toMatchObject({ page: 2, nextPage: false, previousPage: true });
    expect(page2.items.map((k) => k.name)).toEqual(["k1"]);
    for (const q of ["page=0", "pageSize=0", "pageSize=51", "page=abc"]) {
      const response = await call(collection.GET, `/api/v2/private/api-keys?accountId=${user.accountId}&${q}`, {
        token: user.token,
      });
      expect(response.status, q).toBe(400);
      const field = q.split("=")[0];
      expect((await readJson<{ errors: { field: string }[] }>(response)).errors[0]!.field).toBe(field);
    }
    const empty = await createTestUser();
    const none = await readJson<Envelope<Key>>(
      await call(collection.GET, `/api/v2/private/api-keys?accountId=${empty.accountId}`, { token: empty.token }),
    );
    expect(none).toMatchObject({ totalPages: 0, itemsCount: 0, items: [], nextPage: false, previousPage: false });
  });

  it("patches name, duplicate prevention and permissions and answers the key masked", async () => {
    const key = await readJson<Key>(await createKey(owner, { name: "Before" }));
    const response = await call(item.PATCH, `/api/v2/private/api-keys/${key.id}`, {
      method: "PATCH",
      token: owner.token,
      params: { id: key.id },
      body: { name: "After", preventDuplicateOrders: true, permissions: ["shipping-orders:read"] },
    });
    expect(response.status).toBe(200);
    const patched = await readJson<Key>(response);
    expect(patched).toMatchObject({
      id: key.id,
      name: "After",
      preventDuplicateOrders: true,
      permissions: ["shipping-orders:read"],
    });
    expect(patched.key).toBe(`svc_****${key.key.slice(-4)}`);
    const bad = await call(item.PATCH, `/api/v2/private/api-keys/${key.id}`, {
      method: "PATCH",
      token: owner.token,
      params: { id: key.id },
      body: { permissions: ["root"] },
    });
    expect(bad.status).toBe(400);
    const db = await getDb();
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.targetId, key.id));
    expect(audit.map((a) => a.action).sort()).toEqual(["api_key.created", "api_key.updated"]);
  });

  it("revokes with 204; the key leaves the list; another account's key is a 404", async () => {
    const key = await readJson<Key>(await createKey(owner, { name: "Doomed" }));
    const foreign = await call(item.DELETE, `/api/v2/private/api-keys/${key.id}`, {
      method: "DELETE",
      token: stranger.token,
      params: { id: key.id },
    });
    expect(foreign.status).toBe(404);
    const foreignPatch = await call(item.PATCH, `/api/v2/private/api-keys/${key.id}`, {
      method: "PATCH",
      token: stranger.token,
      params: { id: key.id },
      body: { name: "x" },
    });
    expect(foreignPatch.status).toBe(404);
    const revoked = await call(item.DELETE, `/api/v2/private/api-keys/${key.id}`, {
      method: "DELETE",
      token: owner.token,
      params: { id: key.id },
    });
    expect(revoked.status).toBe(204);
    const list = await readJson<Envelope<Key>>(
      await call(collection.GET, `/api/v2/private/api-keys?accountId=${owner.accountId}&pageSize=50`, {
        token: owner.token,
      }),
    );
    expect(list.items.some((k) => k.id === key.id)).toBe(false);
    const again = await call(item.DELETE, `/api/v2/private/api-keys/${key.id}`, {
      method: "DELETE",
      token: owner.token,
      params: { id: key.id },
    });
    expect(again.status).toBe(404);
    const malformed = await call(item.DELETE, `/api/v2/private/api-keys/nope`, {
      method: "DELETE",
      token: owner.token,
      params: { id: "nope" },
    });
    expect(malformed.status).toBe(404);
  });
});

describe("private API: accountId defaults", () => {
  it("uses the caller's only account when accountId is omitted, and asks for it when there are several", async () => {
    const single = await createTestUser();
    const created = await call(collection.POST, "/api/v2/private/api-keys", {
      token: single.token,
      body: { name: "No account id" },
    });
    expect(created.status).toBe(201);
    const list = await call(collection.GET, "/api/v2/private/api-keys", { token: single.token });
    expect((await readJson<Envelope<Key>>(list)).itemsCount).toBe(1);
    const other = await createTestUser();
    const multi = await createTestUser({ accountId: other.accountId, role: "owner" });
    const { createUser } = await import("@/server/services/accounts/create-user");
    await createUser(await getDb(), { email: multi.email, accountId: single.accountId });
    const ambiguous = await call(collection.POST, "/api/v2/private/api-keys", {
      token: multi.token,
      body: { name: "Which?" },
    });
    expect(ambiguous.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(ambiguous)).errors[0]!.field).toBe("accountId");
  });
});

describe("private API: limits on creating keys", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers 409 problem+json naming the cap once the account has as many active keys of the kind as it may", async () => {
    const owner = await createTestUser();
    await (await getDb()).insert(apiKeys).values(
      Array.from({ length: MAX_ACTIVE_KEYS_PER_KIND }, (_, i) => ({
        accountId: owner.accountId,
        name: `seeded ${i}`,
        keyHash: `seeded-rest-${owner.accountId}-${i}`,
        suffix: "xxxx",
        permissions: [],
      })),
    );
    const refused = await createKey(owner, { name: "one too many" });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect((await readJson<{ detail: string }>(refused)).detail).toBe(
      `An account can have at most ${MAX_ACTIVE_KEYS_PER_KIND} active secret API keys; revoke one before creating another.`,
    );
  });

  it("answers 429 with Retry-After past the creation limit, the dashboard's creations counted too", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    const owner = await createTestUser();
    const dashboard = await callerFor(owner);
    for (let i = 0; i < 5; i++) await dashboard.apiKeys.create({ accountId: owner.accountId, name: `dashboard ${i}` });
    for (let i = 0; i < 5; i++) expect((await createKey(owner, { name: `rest ${i}` })).status).toBe(201);
    const limited = await createKey(owner, { name: "eleventh" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await readJson<{ detail: string }>(limited)).detail).toContain("Too many API keys created by this user");
  });
});
