import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { call, createTestUser, readJson } from "@/test/helpers";
import * as deliveries from "./[id]/deliveries/route";
import * as item from "./[id]/route";
import * as rotate from "./[id]/rotate-secret/route";
import * as ping from "./[id]/test/route";
import * as collection from "./route";

// No WEBHOOK_ALLOW_PRIVATE_TARGETS here: the production rules. Public IP literals need no DNS.
const PUBLIC = "https://93.184.216.34/hooks";

type Endpoint = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  sources: { referenceSource: string; sourceIdentifier: string }[] | null;
  enabled: boolean;
  created: string;
  secret?: string;
};

const createEndpoint = (token: string, body: unknown) =>
  call(collection.POST, "/api/v2/private/webhook-endpoints", { token, body });

async function problemFields(response: Response): Promise<string[]> {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return (await readJson<{ errors: { field: string }[] }>(response)).errors.map((e) => e.field);
}

describe("/private/webhook-endpoints", () => {
  it("creates an endpoint with every type and pair by default, and shows the secret only once", async () => {
    const user = await createTestUser();
    const response = await createEndpoint(user.token, { url: PUBLIC, description: "ERP" });
    expect(response.status).toBe(201);
    const created = await readJson<Endpoint>(response);
    expect(created).toMatchObject({
      url: PUBLIC,
      description: "ERP",
      eventTypes: [
        "shipping_order.created",
        "shipping_order.status_changed",
        "shipping_order.cancelled",
        "shipping_order.courier_rejected",
      ],
      sources: null,
      enabled: true,
    });
    expect(created.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(Buffer.from(created.secret!.slice("whsec_".length), "base64").length).toBeGreaterThanOrEqual(24);
    const list = await readJson<{ items: Endpoint[]; nextPage: unknown; previousPage: unknown; totalPages: number }>(
      await call(collection.GET, "/api/v2/private/webhook-endpoints", { token: user.token }),
    );
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).not.toHaveProperty("secret");
    expect(list).toMatchObject({ totalPages: 1, nextPage: false, previousPage: false });
  });

  it("keeps the given types and pairs, and PATCH changes them, disables and enables", async () => {
    const user = await createTestUser();
    const created = await readJson<Endpoint>(
      await createEndpoint(user.token, {
        url: PUBLIC,
        eventTypes: ["shipping_order.status_changed", "shipping_order.status_changed"],
        sources: [{ referenceSource: "shop", sourceIdentifier: "cz" }],
      }),
    );
    expect(created.eventTypes).toEqual(["shipping_order.status_changed"]);
    expect(created.sources).toEqual([{ referenceSource: "shop", sourceIdentifier: "cz" }]);
    const patch = (body: unknown) =>
      call(item.PATCH, `/api/v2/private/webhook-endpoints/${created.id}`, {
        token: user.token,
        method: "PATCH",
        body,
        params: { id: created.id },
      });
    const updated = await readJson<Endpoint>(await patch({ enabled: false, sources: null, description: "x" }));
    expect(updated).toMatchObject({
      enabled: false,
      sources: null,
      description: "x",
      eventTypes: ["shipping_order.status_changed"],
    });
    expect((await readJson<Endpoint>(await patch({ enabled: true }))).enabled).toBe(true);
    expect(await problemFields(await patch({ url: "http://93.184.216.34/" }))).toEqual(["url"]);
    expect(await problemFields(await patch({ eventTypes: [] }))).toEqual(["eventTypes"]);
    const db = await getDb();
    const actions = (await db.select().from(auditEvents).where(eq(auditEvents.targetId, created.id))).map(
      (a) => a.action,
    );
    expect(actions.filter((a) => a === "webhook_endpoint.updated")).toHaveLength(2);
    expect(actions).toContain("webhook_endpoint.created");
  });

  it("refuses http://, loopback, private, link-local and unresolvable targets with 400 naming url", async () => {
    const user = await createTestUser();
    for (const url of [
      "http://93.184.216.34/hooks",
      "https://127.0.0.1/hooks",
      "https://localhost/hooks",
      "https://10.1.2.3/",
      "https://192.168.0.10/",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/",
      "https://[fd00::1]/",
      "https://user:pass@93.184.216.34/",
      "https://no-such-host.invalid/",
      "ftp://93.184.216.34/",
      "not a url",
      "",
    ]) {
      expect(await problemFields(await createEndpoint(user.token, { url })), url).toEqual(["url"]);
    }
    expect(await problemFields(await createEndpoint(user.token, {}))).toEqual(["url"]);
    expect(
      await problemFields(await createEndpoint(user.token, { url: PUBLIC, eventTypes: ["order.exploded"] })),
    ).toEqual(["eventTypes[0]"]);
    expect(
      await problemFields(await createEndpoint(user.token, { url: PUBLIC, sources: [{ referenceSource: "x" }] })),
    ).toEqual(["sources[0].sourceIdentifier"]);
    const list = await readJson<{ items: unknown[] }>(
      await call(collection.GET, "/api/v2/private/webhook-endpoints", { token: user.token }),
    );
    expect(list.items).toEqual([]);
  });

  it("rotates the secret, queues a test event (202), lists deliveries with a status filter, and deletes", async () => {
    const user = await createTestUser();
    const created = await readJson<Endpoint>(await createEndpoint(user.token, { url: PUBLIC }));
    const params = { id: created.id };
    const rotated = await call(rotate.POST, `/api/v2/private/webhook-endpoints/${created.id}/rotate-secret`, {
      token: user.token,
      method: "POST",
      params,
    });
    expect(rotated.status).toBe(200);
    expect((await readJson<{ secret: string }>(rotated)).secret).toMatch(/^whsec_/);
    const test = await call(ping.POST, `/api/v2/private/webhook-endpoints/${created.id}/test`, {
      token: user.token,
      method: "POST",
      params,
    });
    expect(test.status).toBe(202);
    const list = await readJson<{ items: Record<string, unknown>[]; itemsCount: number }>(
      await call(deliveries.GET, `/api/v2/private/webhook-endpoints/${created.id}/deliveries?status=pending`, {
        token: user.token,
        params,
      }),
    );
    expect(list.itemsCount).toBe(1);
    expect(Object.keys(list.items[0]!).sort()).toEqual(
      [
        "attempts",
        "created",
        "durationMs",
        "eventId",
        "eventType",
        "id",
        "lastError",
        "nextAttempt",
        "responseStatus",
        "status",
      ].sort(),
    );
    expect(list.items[0]).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0 });
    const bad = await call(deliveries.GET, `/api/v2/private/webhook-endpoints/${created.id}/deliveries?status=lost`, {
      token: user.token,
      params,
    });
    expect(await problemFields(bad)).toEqual(["status"]);
    const unknown = await call(
      deliveries.GET,
      `/api/v2/private/webhook-endpoints/${created.id}/deliveries?state=failed`,
      {
        token: user.token,
        params,
      },
    );
    expect(await problemFields(unknown)).toEqual(["state"]);
    const removed = await call(item.DELETE, `/api/v2/private/webhook-endpoints/${created.id}`, {
      token: user.token,
      method: "DELETE",
      params,
    });
    expect(removed.status).toBe(204);
    expect(
      (
        await call(item.DELETE, `/api/v2/private/webhook-endpoints/${created.id}`, {
          token: user.token,
          method: "DELETE",
          params,
        })
      ).status,
    ).toBe(404);
  });

  it("lets members read but not change endpoints", async () => {
    const owner = await createTestUser();
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    const created = await readJson<Endpoint>(await createEndpoint(owner.token, { url: PUBLIC }));
    expect((await createEndpoint(member.token, { url: PUBLIC, accountId: owner.accountId })).status).toBe(403);
    const list = await call(collection.GET, `/api/v2/private/webhook-endpoints?accountId=${owner.accountId}`, {
      token: member.token,
    });
    expect(list.status).toBe(200);
    const patch = await call(item.PATCH, `/api/v2/private/webhook-endpoints/${created.id}`, {
      token: member.token,
      method: "PATCH",
      body: { enabled: false },
      params: { id: created.id },
    });
    expect(patch.status).toBe(403);
  });
});
