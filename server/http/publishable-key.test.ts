import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as couriers from "@/app/api/v2/couriers/route";
import * as search from "@/app/api/v2/couriers/[courier_id]/pickup-points/route";
import * as one from "@/app/api/v2/couriers/[courier_id]/pickup-points/[id]/route";
import * as orders from "@/app/api/v2/shipping-orders/route";
import * as keys from "@/app/api/v2/private/api-keys/route";
import * as key from "@/app/api/v2/private/api-keys/[id]/route";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { rateLimitBuckets } from "@/db/schema";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/client-address";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { statementsDuring } from "@/test/statements";
import { callerFor } from "@/test/trpc";

// A small per-address ceiling, set before the environment is first read in this process.
vi.hoisted(() => {
  process.env.PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE = "4";
});

// Buckets refill with the app's clock: stopped here, so the counts hold however long each request takes.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
});
afterEach(() => {
  vi.useRealTimers();
});

type Key = { id: string; key: string; kind: string; allowedOrigins: string[]; permissions: string[] };
type Problem = { status: number; detail: string; errors?: { field: string; message: string }[] };

const SHOP = "https://shop.example";
const POINTS = [...syntheticPoints({ courier: "packeta", count: 300 })];
const SEARCH = "/api/v2/couriers/packeta/pickup-points";

let owner: TestUser;
let publishable: Key;

const createKey = (body: Record<string, unknown>) =>
  call(keys.POST, "/api/v2/private/api-keys", { token: owner.token, body: { accountId: owner.accountId, ...body } });

/** A search with the publishable key, from `origin` (none: no Origin header). */
const searchFrom = (origin: string | null, headers: Record<string, string> = {}, apiKey = publishable.key) =>
  call(search.GET, `${SEARCH}?pageSize=2`, {
    apiKey,
    params: { courier_id: "packeta" },
    headers: { ...(origin ? { origin } : {}), ...headers },
  });

/** One point by its id with the publishable key: a request that counts one, whatever a search costs. */
const lookupFrom = (origin: string, headers: Record<string, string>, apiKey: string) =>
  call(one.GET, `${SEARCH}/${POINTS[0]!.id}`, {
    apiKey,
    params: { courier_id: "packeta", id: POINTS[0]!.id },
    headers: { origin, ...headers },
  });

beforeAll(async () => {
  await insertDirectoryPoints(await getDb(), POINTS);
  owner = await createTestUser();
  const created = await createKey({
    name: "Checkout widget",
    kind: "publishable",
    allowedOrigins: ["https://Shop.example:443/", "http://localhost:3000"],
  });
  expect(created.status).toBe(201);
  publishable = await readJson<Key>(created);
});

describe("creating a publishable key", () => {
  it("answers svc_pk_… holding no permission, with its origins as browsers send them, and lists it by its kind", async () => {
    expect(publishable.key).toMatch(/^svc_pk_[0-9A-Za-z]{43}$/);
    expect(publishable).toMatchObject({
      kind: "publishable",
      allowedOrigins: [SHOP, "http://localhost:3000"],
      permissions: [],
    });
    const list = await readJson<{ items: Key[] }>(
      await call(keys.GET, `/api/v2/private/api-keys?accountId=${owner.accountId}`, { token: owner.token }),
    );
    expect(list.items.find((k) => k.id === publishable.id)).toMatchObject({
      kind: "publishable",
      key: `svc_pk_****${publishable.key.slice(-4)}`,
      allowedOrigins: [SHOP, "http://localhost:3000"],
    });
  });

  it("refuses origins that are not exact https origins (http only for localhost), naming each", async () => {
    const response = await createKey({
      name: "bad",
      kind: "publishable",
      allowedOrigins: [
        "https://shop.example/checkout",
        "http://shop.example",
        "https://*.shop.example",
        "shop.example",
      ],
    });
    expect(response.status).toBe(400);
    const refused = await readJson<Problem>(response);
    expect(refused.errors?.map((e) => e.field)).toEqual([
      "allowedOrigins[0]",
      "allowedOrigins[1]",
      "allowedOrigins[2]",
      "allowedOrigins[3]",
    ]);
    // Each message names the origin it refuses: the dashboard shows them under one field.
    expect(refused.errors?.[0]?.message).toMatch(/^"https:\/\/shop\.example\/checkout" is not an exact origin/);
    expect(refused.errors?.[3]?.message).toMatch(/^"shop\.example" is not an exact origin/);
    const none = await readJson<Problem>(await createKey({ name: "none", kind: "publishable" }));
    expect(none.errors).toEqual([
      { field: "allowedOrigins", message: "a publishable key needs 1 to 20 allowedOrigins" },
    ]);
    const secret = await readJson<Problem>(await createKey({ name: "secret", allowedOrigins: [SHOP] }));
    expect(secret.errors?.map((e) => e.field)).toEqual(["allowedOrigins"]);
    const permissions = await readJson<Problem>(
      await createKey({ name: "p", kind: "publishable", allowedOrigins: [SHOP], permissions: ["labels:read"] }),
    );
    expect(permissions.errors?.map((e) => e.field)).toEqual(["permissions"]);
  });

  it("is created, listed and revoked through tRPC with the same service", async () => {
    const trpc = await callerFor(owner);
    const created = await trpc.apiKeys.create({
      accountId: owner.accountId,
      name: "tRPC widget",
      kind: "publishable",
      allowedOrigins: [SHOP],
    });
    expect(created.key).toMatch(/^svc_pk_/);
    expect((await searchFrom(SHOP, {}, created.key)).status).toBe(200);
    await trpc.apiKeys.revoke({ id: created.id });
    expect((await searchFrom(SHOP, {}, created.key)).status).toBe(401);
  });
});

describe("a publishable key", () => {
  it("searches pickup points from an allowed origin, answered with CORS headers for it", async () => {
    const response = await searchFrom(SHOP);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(response.headers.get("vary")).toContain("Origin");
    expect(response.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    const point = POINTS[0]!;
    const single = await call(one.GET, `${SEARCH}/${point.id}`, {
      apiKey: publishable.key,
      params: { courier_id: "packeta", id: point.id },
      headers: { origin: "http://localhost:3000" },
    });
    expect(single.status).toBe(200);
    expect(single.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  it("is refused (403, no CORS headers) from a foreign origin and without an Origin, except the widget's own page", async () => {
    const foreign = await searchFrom("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expect((await readJson<Problem>(foreign)).detail).toBe(
      "The origin https://evil.example is not one of this publishable key's allowedOrigins.",
    );
    const noOrigin = await searchFrom(null);
    expect(noOrigin.status).toBe(403);
    expect((await readJson<Problem>(noOrigin)).detail).toContain("carries no Origin header");
    const widgetPage = await searchFrom(null, { "sec-fetch-site": "same-origin" });
    expect(widgetPage.status).toBe(200);
    expect(widgetPage.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("may call nothing else (403 saying so), while a secret key keeps working as before", async () => {
    for (const [handler, path] of [
      [couriers.GET, "/api/v2/couriers"],
      [orders.GET, "/api/v2/shipping-orders"],
    ] as const) {
      const response = await call(handler, path, { apiKey: publishable.key, headers: { origin: SHOP } });
      expect(response.status, path).toBe(403);
      expect((await readJson<Problem>(response)).detail, path).toContain("may only search pickup points");
    }
    const secret = await readJson<Key>(await createKey({ name: "server" }));
    expect(secret).toMatchObject({ kind: "secret", allowedOrigins: [] });
    expect(secret.key).toMatch(/^svc_[0-9A-Za-z]{43}$/);
    expect((await call(couriers.GET, "/api/v2/couriers", { apiKey: secret.key })).status).toBe(200);
    const server = await call(search.GET, SEARCH, { apiKey: secret.key, params: { courier_id: "packeta" } });
    expect(server.status).toBe(200);
    expect(server.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("keeps its kind: permissions cannot be given to it, origins only to it", async () => {
    const patch = (id: string, body: unknown) =>
      call(key.PATCH, `/api/v2/private/api-keys/${id}`, { method: "PATCH", token: owner.token, body, params: { id } });
    const widened = await patch(publishable.id, { permissions: ["shipping-orders:write"] });
    expect(widened.status).toBe(400);
    expect((await readJson<Problem>(widened)).errors?.map((e) => e.field)).toEqual(["permissions"]);
    const moved = await patch(publishable.id, { allowedOrigins: [SHOP, "https://shop2.example"] });
    expect(((await readJson<Key>(moved)) as Key).allowedOrigins).toEqual([SHOP, "https://shop2.example"]);
    expect((await searchFrom("https://shop2.example")).status).toBe(200);
    expect((await searchFrom("http://localhost:3000")).status).toBe(403);
  });
});

describe("the CORS preflight", () => {
  const preflight = (origin: string | null) =>
    call(search.OPTIONS, `${SEARCH}?q=praha`, {
      method: "OPTIONS",
      params: { courier_id: "packeta" },
      headers: {
        ...(origin ? { origin } : {}),
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-api-key",
      },
    });
  const shape = (response: Response) => ({
    status: response.status,
    headers: Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-"))),
    vary: response.headers.get("vary"),
  });

  it("lets the browser send the key's header, for any origin (the request is checked against its own key)", async () => {
    const response = await preflight(SHOP);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toContain("X-API-Key");
    expect(response.headers.get("access-control-allow-methods")).toContain("GET");
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  it("answers every origin the same, a customer's, a stranger's or none, and reads no database", async () => {
    const answers: ReturnType<typeof shape>[] = [];
    const statements = await statementsDuring(async () => {
      for (const origin of [SHOP, "https://evil.example", "http://localhost:3000", null])
        answers.push(shape(await preflight(origin)));
      answers.push(
        shape(
          await call(one.OPTIONS, `${SEARCH}/1`, {
            method: "OPTIONS",
            params: { courier_id: "packeta", id: "1" },
            headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
          }),
        ),
      );
    });
    expect(statements).toEqual([]);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 204, vary: null });
    // The counter sees what a request sends: a search with the key does reach the database.
    expect((await statementsDuring(() => searchFrom(SHOP))).length).toBeGreaterThan(0);
  });
});

describe("what a publishable key's refused requests cost", () => {
  const bucketTokens = async (subject: string) => {
    const [row] = await (
      await getDb()
    )
      .select({ tokens: rateLimitBuckets.tokens })
      .from(rateLimitBuckets)
      .where(eq(rateLimitBuckets.subject, subject));
    return row ? Number(row.tokens) : null;
  };

  it("takes nothing from the key's or the account's bucket: one address meets its own limit and no more", async () => {
    const fresh = await readJson<Key>(
      await createKey({ name: "refusals", kind: "publishable", allowedOrigins: [SHOP], rateLimitPerMinute: 3 }),
    );
    expect((await lookupFrom(SHOP, { [CLIENT_ADDRESS_HEADER]: "192.0.2.1" }, fresh.key)).status).toBe(200);
    const before = [await bucketTokens(`key:${fresh.id}`), await bucketTokens(`account:${owner.accountId}`)];
    expect(before[0]).toBe(2);

    const attacker = { [CLIENT_ADDRESS_HEADER]: "192.0.2.66" };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await searchFrom(null, attacker, fresh.key)).status);
    expect(statuses).toEqual([403, 403, 403, 403, ...Array<number>(8).fill(429)]);
    for (let i = 0; i < 3; i++) {
      const address = { [CLIENT_ADDRESS_HEADER]: `192.0.2.${70 + i}` };
      expect((await searchFrom("https://evil.example", address, fresh.key)).status).toBe(403);
      const elsewhere = await call(couriers.GET, "/api/v2/couriers", {
        apiKey: fresh.key,
        headers: { origin: SHOP, ...address },
      });
      expect(elsewhere.status).toBe(403);
    }

    expect([await bucketTokens(`key:${fresh.id}`), await bucketTokens(`account:${owner.accountId}`)]).toEqual(before);
    // Shoppers elsewhere still get the whole of the key's limit, and only what is answered counts.
    for (let i = 0; i < 2; i++)
      expect((await lookupFrom(SHOP, { [CLIENT_ADDRESS_HEADER]: `192.0.2.${10 + i}` }, fresh.key)).status).toBe(200);
    expect(await bucketTokens(`key:${fresh.id}`)).toBe(0);
  });

  it("holds a script that forges a page's headers to the per-address limit like any other caller", async () => {
    // Outside a browser any header can be sent: Sec-Fetch-Site as the widget's own page has it, or a listed Origin.
    // Such requests are answered; what limits them is the address's bucket, then the key's.
    for (const [address, forged] of [
      ["192.0.2.91", { "sec-fetch-site": "same-origin" }],
      ["192.0.2.92", { origin: SHOP }],
    ] as const) {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await call(search.GET, `${SEARCH}?pageSize=1`, {
          apiKey: publishable.key,
          params: { courier_id: "packeta" },
          headers: { ...forged, [CLIENT_ADDRESS_HEADER]: address },
        });
        statuses.push(response.status);
      }
      expect(statuses, address).toEqual([200, 200, 200, 200, 429]);
    }
  });
});

describe("rate limits of a publishable key", () => {
  const fromAddress = (apiKey: string, address: string) =>
    searchFrom(SHOP, { [CLIENT_ADDRESS_HEADER]: address }, apiKey);

  it("counts each client address on its own, with CORS headers on the 429 so the widget can tell", async () => {
    const { key: fresh } = await readJson<Key>(
      await createKey({ name: "per address", kind: "publishable", allowedOrigins: [SHOP] }),
    );
    for (let i = 0; i < 4; i++) expect((await fromAddress(fresh, "203.0.113.7")).status).toBe(200);
    const limited = await fromAddress(fresh, "203.0.113.7");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await readJson<Problem>(limited)).detail).toContain("for this client address");
    expect((await fromAddress(fresh, "203.0.113.8")).status).toBe(200);
    vi.setSystemTime(Date.now() + 60_000);
    expect((await fromAddress(fresh, "203.0.113.7")).status).toBe(200);
  });

  it("counts a search as one request on the key, not a secret key's five: the shop's shoppers typing", async () => {
    const { key: fresh } = await readJson<Key>(
      await createKey({ name: "search cost", kind: "publishable", allowedOrigins: [SHOP], rateLimitPerMinute: 3 }),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fromAddress(fresh, `198.51.100.${40 + i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("holds the key's own limit over all addresses together, its 429 readable by the key's page", async () => {
    const { key: fresh } = await readJson<Key>(
      await createKey({ name: "per key", kind: "publishable", allowedOrigins: [SHOP], rateLimitPerMinute: 3 }),
    );
    const lookup = (address: string) => lookupFrom(SHOP, { [CLIENT_ADDRESS_HEADER]: address }, fresh);
    for (let i = 0; i < 3; i++) expect((await lookup(`198.51.100.${i + 1}`)).status).toBe(200);
    const limited = await lookup("198.51.100.9");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect((await readJson<Problem>(limited)).detail).toContain("The API key's rate limit is exhausted");
    // From a foreign origin the key's 429 stays unreadable: the origin is refused first (403, no CORS headers).
    const foreign = await searchFrom("https://evil.example", { [CLIENT_ADDRESS_HEADER]: "198.51.100.10" }, fresh);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });
});
