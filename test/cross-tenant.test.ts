import { TRPCError } from "@trpc/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import * as labels from "@/app/api/v2/labels/route";
import * as apiKeyItem from "@/app/api/v2/private/api-keys/[id]/route";
import * as apiKeys from "@/app/api/v2/private/api-keys/route";
import * as accountItem from "@/app/api/v2/private/accounts/[accountId]/route";
import * as courierProfileItem from "@/app/api/v2/private/courier-profiles/[id]/route";
import * as courierProfiles from "@/app/api/v2/private/courier-profiles/route";
import * as sourceItem from "@/app/api/v2/private/sources/[id]/route";
import * as sources from "@/app/api/v2/private/sources/route";
import * as label from "@/app/api/v2/shipping-orders/[id]/label/route";
import * as orderItem from "@/app/api/v2/shipping-orders/[id]/route";
import * as list from "@/app/api/v2/shipping-orders/route";
import * as events from "@/app/api/v2/events/route";
import * as webhookDeliveryResend from "@/app/api/v2/private/webhook-deliveries/[id]/resend/route";
import * as webhookDeliveriesOf from "@/app/api/v2/private/webhook-endpoints/[id]/deliveries/route";
import * as webhookEndpointItem from "@/app/api/v2/private/webhook-endpoints/[id]/route";
import * as webhookRotate from "@/app/api/v2/private/webhook-endpoints/[id]/rotate-secret/route";
import * as webhookTest from "@/app/api/v2/private/webhook-endpoints/[id]/test/route";
import * as webhookEndpoints from "@/app/api/v2/private/webhook-endpoints/route";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { refusedAttempts, validationResults, webhookDeliveries } from "@/db/schema";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { activateSource } from "@/server/services/sources/activate-source";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { sendTestWebhook } from "@/server/services/webhooks/send-test-webhook";
import { appRouter } from "@/server/trpc/root";
import { accountDigest, type AccountDigest } from "@/test/account-digest";
import { printFigures } from "@/test/figures";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { callerFor } from "@/test/trpc";

/**
 * Cross-tenant matrix: account B (its API key, its owner's access token and dashboard session) calls every
 * route and procedure that takes an id or an account with account A's ids. Each answers 404 / NOT_FOUND (or an
 * empty list for list filters), and A's rows are byte-for-byte what they were before. A member (not owner) of
 * A is refused every write with 403 / FORBIDDEN.
 */

type Order = { id: string; referenceNumber: string; shippingNumber: string[]; replaced: string | null };

const figures = { cases: 0, fiveXx: 0 };
const counted = async (response: Promise<Response>): Promise<Response> => {
  const r = await response;
  figures.cases += 1;
  if (r.status >= 500) figures.fiveXx += 1;
  return r;
};

let a: Partner;
let b: Partner;
let member: TestUser;
let aOrder: Order;
let aSecondKeyId: string;
let aSourceId: string;
let aSecondProfileId: string;
let snapshot: AccountDigest;
let aValidationResultId: string;
let aRefusedAttemptId: string;
let aEndpointId: string;
let aDeliveryId: string;
let aEventId: string;

beforeAll(async () => {
  a = await createPartner();
  b = await createPartner();
  member = await createTestUser({ accountId: a.accountId, role: "member" });
  const db = await getDb();
  const actor = { userId: a.userId, isStaff: false };
  const created = await as(a)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    body: order({ ReferenceNumber: "TENANT-A-1", Parcels: [{ Weight: 1 }, { Weight: 2 }] }),
    params: { courier_id: "sandbox" },
  });
  aOrder = (await readJson<{ items: Order[] }>(created)).items[0]!;
  aSecondKeyId = (await createApiKey(db, actor, { accountId: a.accountId, name: "second" })).id;
  aSourceId = (
    await activateSource(db, actor, { accountId: a.accountId, referenceSource: "shop", sourceIdentifier: "eu" })
  ).id;
  aSecondProfileId = (
    await createCourierProfile(db, actor, {
      accountId: a.accountId,
      courier: "sandbox",
      name: "Express",
      service: "EXPRESS",
    })
  ).id;
  // Public IP literal: no DNS, and no worker runs here, so the test delivery stays queued.
  aEndpointId = (await createWebhookEndpoint(db, actor, { accountId: a.accountId, url: "https://93.184.216.34/a" })).id;
  aEventId = (await sendTestWebhook(db, actor, aEndpointId)).eventId;
  aDeliveryId = (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, aEndpointId)))[0]!.id;
  // A refused create of A's, made before the snapshot: B must not see it, and nothing B tries may change it.
  await (
    await callerFor(a)
  ).shippingOrders.create({
    accountId: a.accountId,
    courierId: "sandbox",
    body: order({ ReferenceNumber: "COURIER-FAIL-A" }),
  });
  const [refused] = await (
    await getDb()
  )
    .select({ id: refusedAttempts.id })
    .from(refusedAttempts)
    .where(eq(refusedAttempts.accountId, a.accountId))
    .limit(1);
  aRefusedAttemptId = refused!.id;
  snapshot = await accountDigest(a.accountId);
});

afterEach(async () => {
  // Whatever B or the member tried, A's orders, parcels, keys, sources and profiles are as they were.
  expect(await accountDigest(a.accountId)).toEqual(snapshot);
});

afterAll(() => printFigures("cross-tenant matrix (REST and tRPC)", figures));

describe("REST, shipping-order API: B's key with A's ids", () => {
  const byB = (handler: unknown, path: string, options: Parameters<ReturnType<typeof as>>[2] = {}) =>
    counted(as(b)(handler, path, options));

  it.each([
    [
      "GET /shipping-orders/{id}",
      () => byB(orderItem.GET, `/api/v2/shipping-orders/${aOrder.id}`, { params: { id: aOrder.id } }),
    ],
    [
      "DELETE /shipping-orders/{id}",
      () =>
        byB(orderItem.DELETE, `/api/v2/shipping-orders/${aOrder.id}`, { method: "DELETE", params: { id: aOrder.id } }),
    ],
    [
      "GET /shipping-orders/{id}/label",
      () => byB(label.GET, `/api/v2/shipping-orders/${aOrder.id}/label`, { params: { id: aOrder.id } }),
    ],
    [
      "GET /labels?shippingNumbers=",
      () => byB(labels.GET, `/api/v2/labels?shippingNumbers=${aOrder.shippingNumber.join(",")}`),
    ],
    [
      "POST create ?profile= of A",
      () =>
        byB(create.POST, `/api/v2/couriers/sandbox/shipping-orders?profile=${a.profileId}`, {
          body: order({ ReferenceNumber: "B-WITH-A-PROFILE" }),
          params: { courier_id: "sandbox" },
        }),
    ],
    [
      "POST validate ?profile= of A",
      () =>
        byB(validate.POST, `/api/v2/couriers/sandbox/shipping-orders/validate?profile=${aSecondProfileId}`, {
          body: order(),
          params: { courier_id: "sandbox" },
        }),
    ],
  ])("%s → 404 problem", async (_, send) => {
    const response = await send();
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it.each([
    ["ids", () => `ids=${aOrder.id}`],
    ["shippingNumbers", () => `shippingNumbers=${aOrder.shippingNumber[0]}`],
    ["referenceNumbers", () => `referenceNumbers=${aOrder.referenceNumber}`],
    ["courierProfile", () => `courierProfile=${a.profileId}`],
  ])("GET /shipping-orders?%s= of A → an empty list", async (_, query) => {
    const response = await byB(list.GET, `/api/v2/shipping-orders?${query()}`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ itemsCount: 0, totalPages: 0, items: [] });
  });

  it("GET /events?after= A's event → 400 naming after, and B's feed holds none of A's events", async () => {
    const response = await byB(events.GET, `/api/v2/events?after=${aEventId}`);
    expect(response.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(response)).errors[0]!.field).toBe("after");
    const feed = await readJson<{ items: { id: string }[] }>(await byB(events.GET, "/api/v2/events?limit=100"));
    expect(feed.items.map((e) => e.id)).not.toContain(aEventId);
  });

  it("B creating A's ReferenceNumber replaces nothing of A's", async () => {
    const response = await byB(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: order({ ReferenceNumber: aOrder.referenceNumber }),
      params: { courier_id: "sandbox" },
    });
    expect(response.status).toBe(200);
    expect((await readJson<{ items: Order[] }>(response)).items[0]!.replaced).toBeNull();
    expect(
      (await counted(as(a)(orderItem.GET, `/api/v2/shipping-orders/${aOrder.id}`, { params: { id: aOrder.id } })))
        .status,
    ).toBe(200);
  });

  it("B's Idempotency-Key equal to one A used gets no replay of A's answer", async () => {
    const body = order({ ReferenceNumber: "IDEM-SHARED" });
    const send = (p: Partner) =>
      counted(
        as(p)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
          body,
          headers: { "idempotency-key": "shared-across-tenants" },
          params: { courier_id: "sandbox" },
        }),
      );
    const first = await readJson<{ items: Order[] }>(await send(a));
    snapshot = await accountDigest(a.accountId);
    const response = await send(b);
    expect(response.status).toBe(200);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    const theirs = await readJson<{ items: Order[] }>(response);
    expect(theirs.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(
      (
        await counted(
          as(b)(orderItem.GET, `/api/v2/shipping-orders/${first.items[0]!.id}`, { params: { id: first.items[0]!.id } }),
        )
      ).status,
    ).toBe(404);
  });
});

describe("REST, private API: B's access token with A's ids and account", () => {
  const byB = (handler: unknown, path: string, options: Parameters<typeof call>[2] = {}) =>
    counted(call(handler, path, { token: b.token, ...options }));

  it.each([
    [
      "PATCH /private/api-keys/{id}",
      () =>
        byB(apiKeyItem.PATCH, `/api/v2/private/api-keys/${aSecondKeyId}`, {
          method: "PATCH",
          body: { name: "taken over" },
          params: { id: aSecondKeyId },
        }),
    ],
    [
      "PATCH /private/api-keys/{id} (A's key in use)",
      () =>
        byB(apiKeyItem.PATCH, `/api/v2/private/api-keys/${a.keyId}`, {
          method: "PATCH",
          body: { permissions: [] },
          params: { id: a.keyId },
        }),
    ],
    [
      "DELETE /private/api-keys/{id}",
      () =>
        byB(apiKeyItem.DELETE, `/api/v2/private/api-keys/${a.keyId}`, { method: "DELETE", params: { id: a.keyId } }),
    ],
    [
      "DELETE /private/sources/{id}",
      () =>
        byB(sourceItem.DELETE, `/api/v2/private/sources/${aSourceId}`, { method: "DELETE", params: { id: aSourceId } }),
    ],
    [
      "PATCH /private/courier-profiles/{id}",
      () =>
        byB(courierProfileItem.PATCH, `/api/v2/private/courier-profiles/${aSecondProfileId}`, {
          method: "PATCH",
          body: { name: "taken over" },
          params: { id: aSecondProfileId },
        }),
    ],
    [
      "DELETE /private/courier-profiles/{id}",
      () =>
        byB(courierProfileItem.DELETE, `/api/v2/private/courier-profiles/${aSecondProfileId}`, {
          method: "DELETE",
          params: { id: aSecondProfileId },
        }),
    ],
    ["GET /private/api-keys?accountId=A", () => byB(apiKeys.GET, `/api/v2/private/api-keys?accountId=${a.accountId}`)],
    ["GET /private/sources?accountId=A", () => byB(sources.GET, `/api/v2/private/sources?accountId=${a.accountId}`)],
    [
      "GET /private/courier-profiles?accountId=A",
      () => byB(courierProfiles.GET, `/api/v2/private/courier-profiles?accountId=${a.accountId}`),
    ],
    [
      "POST /private/api-keys {accountId: A}",
      () => byB(apiKeys.POST, "/api/v2/private/api-keys", { body: { accountId: a.accountId, name: "intruder" } }),
    ],
    [
      "POST /private/sources {accountId: A}",
      () =>
        byB(sources.POST, "/api/v2/private/sources", {
          body: { accountId: a.accountId, referenceSource: "evil", sourceIdentifier: "x" },
        }),
    ],
    [
      "GET /private/webhook-endpoints?accountId=A",
      () => byB(webhookEndpoints.GET, `/api/v2/private/webhook-endpoints?accountId=${a.accountId}`),
    ],
    [
      "POST /private/webhook-endpoints {accountId: A}",
      () =>
        byB(webhookEndpoints.POST, "/api/v2/private/webhook-endpoints", {
          body: { accountId: a.accountId, url: "https://93.184.216.34/b" },
        }),
    ],
    [
      "PATCH /private/webhook-endpoints/{id}",
      () =>
        byB(webhookEndpointItem.PATCH, `/api/v2/private/webhook-endpoints/${aEndpointId}`, {
          method: "PATCH",
          body: { url: "https://93.184.216.34/stolen" },
          params: { id: aEndpointId },
        }),
    ],
    [
      "DELETE /private/webhook-endpoints/{id}",
      () =>
        byB(webhookEndpointItem.DELETE, `/api/v2/private/webhook-endpoints/${aEndpointId}`, {
          method: "DELETE",
          params: { id: aEndpointId },
        }),
    ],
    [
      "POST /private/webhook-endpoints/{id}/rotate-secret",
      () =>
        byB(webhookRotate.POST, `/api/v2/private/webhook-endpoints/${aEndpointId}/rotate-secret`, {
          method: "POST",
          params: { id: aEndpointId },
        }),
    ],
    [
      "POST /private/webhook-endpoints/{id}/test",
      () =>
        byB(webhookTest.POST, `/api/v2/private/webhook-endpoints/${aEndpointId}/test`, {
          method: "POST",
          params: { id: aEndpointId },
        }),
    ],
    [
      "GET /private/webhook-endpoints/{id}/deliveries",
      () =>
        byB(webhookDeliveriesOf.GET, `/api/v2/private/webhook-endpoints/${aEndpointId}/deliveries`, {
          params: { id: aEndpointId },
        }),
    ],
    [
      "POST /private/webhook-deliveries/{id}/resend",
      () =>
        byB(webhookDeliveryResend.POST, `/api/v2/private/webhook-deliveries/${aDeliveryId}/resend`, {
          method: "POST",
          params: { id: aDeliveryId },
        }),
    ],
    [
      "POST /private/courier-profiles {accountId: A}",
      () =>
        byB(courierProfiles.POST, "/api/v2/private/courier-profiles", {
          body: { accountId: a.accountId, courier: "sandbox", name: "intruder", isDefault: true },
        }),
    ],
    [
      "GET /private/accounts/{accountId}",
      () => byB(accountItem.GET, `/api/v2/private/accounts/${a.accountId}`, { params: { accountId: a.accountId } }),
    ],
    [
      "PATCH /private/accounts/{accountId}",
      () =>
        byB(accountItem.PATCH, `/api/v2/private/accounts/${a.accountId}`, {
          method: "PATCH",
          body: { timeZone: "UTC" },
          params: { accountId: a.accountId },
        }),
    ],
  ])("%s → 404 problem", async (_, send) => {
    const response = await send();
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("A's key still works after everything B tried", async () => {
    expect(
      (await counted(as(a)(orderItem.GET, `/api/v2/shipping-orders/${aOrder.id}`, { params: { id: aOrder.id } })))
        .status,
    ).toBe(200);
  });
});

describe("REST, private API: a member of A may read but not write", () => {
  const byMember = (handler: unknown, path: string, options: Parameters<typeof call>[2] = {}) =>
    counted(call(handler, path, { token: member.token, ...options }));

  it.each([
    [
      "POST /private/api-keys",
      () => byMember(apiKeys.POST, "/api/v2/private/api-keys", { body: { accountId: a.accountId, name: "member's" } }),
    ],
    [
      "PATCH /private/api-keys/{id}",
      () =>
        byMember(apiKeyItem.PATCH, `/api/v2/private/api-keys/${aSecondKeyId}`, {
          method: "PATCH",
          body: { name: "renamed" },
          params: { id: aSecondKeyId },
        }),
    ],
    [
      "DELETE /private/api-keys/{id}",
      () =>
        byMember(apiKeyItem.DELETE, `/api/v2/private/api-keys/${a.keyId}`, {
          method: "DELETE",
          params: { id: a.keyId },
        }),
    ],
    [
      "POST /private/sources",
      () =>
        byMember(sources.POST, "/api/v2/private/sources", {
          body: { accountId: a.accountId, referenceSource: "member", sourceIdentifier: "x" },
        }),
    ],
    [
      "DELETE /private/sources/{id}",
      () =>
        byMember(sourceItem.DELETE, `/api/v2/private/sources/${aSourceId}`, {
          method: "DELETE",
          params: { id: aSourceId },
        }),
    ],
    [
      "PATCH /private/courier-profiles/{id}",
      () =>
        byMember(courierProfileItem.PATCH, `/api/v2/private/courier-profiles/${aSecondProfileId}`, {
          method: "PATCH",
          body: { name: "member's" },
          params: { id: aSecondProfileId },
        }),
    ],
    [
      "DELETE /private/courier-profiles/{id}",
      () =>
        byMember(courierProfileItem.DELETE, `/api/v2/private/courier-profiles/${aSecondProfileId}`, {
          method: "DELETE",
          params: { id: aSecondProfileId },
        }),
    ],
    [
      "POST /private/courier-profiles",
      () =>
        byMember(courierProfiles.POST, "/api/v2/private/courier-profiles", {
          body: { accountId: a.accountId, courier: "sandbox", name: "member's" },
        }),
    ],
  ])("%s → 403 problem", async (_, send) => {
    const response = await send();
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it.each([
    ["GET /private/api-keys", () => `/api/v2/private/api-keys?accountId=${a.accountId}`, apiKeys.GET],
    ["GET /private/sources", () => `/api/v2/private/sources?accountId=${a.accountId}`, sources.GET],
    [
      "GET /private/courier-profiles",
      () => `/api/v2/private/courier-profiles?accountId=${a.accountId}`,
      courierProfiles.GET,
    ],
  ])("%s → 200", async (_, path, handler) => {
    expect((await byMember(handler, path())).status).toBe(200);
  });
});

/** The tRPC code a call fails with, or "resolved". */
const outcome = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}`),
  );

type Caller = Awaited<ReturnType<typeof callerFor>>;
type Outcome = "NOT_FOUND" | "FORBIDDEN" | "resolved";
/** One call with A's ids; `member` is what a member of A gets for the same call (null: not an A-account call). */
type Row = { call: (api: Caller) => Promise<unknown>; member: Outcome | null };

/** Every procedure that takes an id or an accountId, called with A's (and, where it takes both, B's account with A's id). */
const matrix: Record<string, Row> = {
  "apiKeys.list": { call: (api) => api.apiKeys.list({ accountId: a.accountId }), member: "resolved" },
  "apiKeys.create": {
    call: (api) => api.apiKeys.create({ accountId: a.accountId, name: "intruder" }),
    member: "FORBIDDEN",
  },
  "apiKeys.update": {
    call: (api) => api.apiKeys.update({ id: aSecondKeyId, name: "taken over" }),
    member: "FORBIDDEN",
  },
  "apiKeys.revoke": { call: (api) => api.apiKeys.revoke({ id: a.keyId }), member: "FORBIDDEN" },
  "sources.list": { call: (api) => api.sources.list({ accountId: a.accountId }), member: "resolved" },
  "sources.activate": {
    call: (api) => api.sources.activate({ accountId: a.accountId, referenceSource: "evil", sourceIdentifier: "x" }),
    member: "FORBIDDEN",
  },
  "sources.deactivate": { call: (api) => api.sources.deactivate({ id: aSourceId }), member: "FORBIDDEN" },
  "courierProfiles.list": { call: (api) => api.courierProfiles.list({ accountId: a.accountId }), member: "resolved" },
  "courierProfiles.create": {
    call: (api) =>
      api.courierProfiles.create({ accountId: a.accountId, courier: "sandbox", name: "intruder", isDefault: true }),
    member: "FORBIDDEN",
  },
  "courierProfiles.setDefault": {
    call: (api) => api.courierProfiles.setDefault({ id: aSecondProfileId }),
    member: "FORBIDDEN",
  },
  "courierProfiles.update": {
    call: (api) => api.courierProfiles.update({ id: aSecondProfileId, changes: { name: "taken over" } }),
    member: "FORBIDDEN",
  },
  // Any member may ask whether the credentials work (nothing changes); a stranger gets 404 as everywhere.
  "courierProfiles.check": {
    call: (api) => api.courierProfiles.check({ id: aSecondProfileId }),
    member: "resolved",
  },
  "courierProfiles.delete": {
    call: (api) => api.courierProfiles.delete({ id: aSecondProfileId }),
    member: "FORBIDDEN",
  },
  "shippingOrders.list": { call: (api) => api.shippingOrders.list({ accountId: a.accountId }), member: "resolved" },
  "shippingOrders.get": {
    call: (api) => api.shippingOrders.get({ accountId: a.accountId, id: aOrder.id }),
    member: "resolved",
  },
  "shippingOrders.get (B's account, A's order)": {
    call: (api) => api.shippingOrders.get({ accountId: b.accountId, id: aOrder.id }),
    member: null,
  },
  "shippingOrders.delete": {
    call: (api) => api.shippingOrders.delete({ accountId: a.accountId, id: aOrder.id }),
    member: "FORBIDDEN",
  },
  "shippingOrders.delete (B's account, A's order)": {
    call: (api) => api.shippingOrders.delete({ accountId: b.accountId, id: aOrder.id }),
    member: null,
  },
  "shippingOrders.validate": {
    call: (api) =>
      api.shippingOrders.validate({
        accountId: a.accountId,
        courierId: "sandbox",
        profileId: a.profileId,
        body: order(),
      }),
    member: "resolved",
  },
  "shippingOrders.validate (B's account, A's profile)": {
    call: (api) =>
      api.shippingOrders.validate({
        accountId: b.accountId,
        courierId: "sandbox",
        profileId: a.profileId,
        body: order(),
      }),
    member: null,
  },
  "validationResults.list": {
    call: (api) => api.validationResults.list({ accountId: a.accountId }),
    member: "resolved",
  },
  "validationResults.get": {
    call: (api) => api.validationResults.get({ id: aValidationResultId }),
    member: "resolved",
  },
  "shippingOrders.create": {
    call: (api) => api.shippingOrders.create({ accountId: a.accountId, courierId: "sandbox", body: order() }),
    member: "FORBIDDEN",
  },
  "shippingOrders.create (B's account, A's profile)": {
    call: (api) =>
      api.shippingOrders.create({
        accountId: b.accountId,
        courierId: "sandbox",
        profileId: a.profileId,
        body: order(),
      }),
    member: null,
  },
  "refusedAttempts.list": { call: (api) => api.refusedAttempts.list({ accountId: a.accountId }), member: "resolved" },
  "refusedAttempts.get": { call: (api) => api.refusedAttempts.get({ id: aRefusedAttemptId }), member: "resolved" },
  "pickupPoints.search": {
    call: (api) => api.pickupPoints.search({ accountId: a.accountId, courier: "packeta" }),
    member: "resolved",
  },
  "overview.get": { call: (api) => api.overview.get({ accountId: a.accountId }), member: "resolved" },
  "statistics.get": { call: (api) => api.statistics.get({ accountId: a.accountId }), member: "resolved" },
  "accounts.settings": { call: (api) => api.accounts.settings({ accountId: a.accountId }), member: "resolved" },
  "accounts.update": {
    call: (api) => api.accounts.update({ accountId: a.accountId, timeZone: "UTC" }),
    member: "FORBIDDEN",
  },
  "auditEvents.list": { call: (api) => api.auditEvents.list({ accountId: a.accountId }), member: "FORBIDDEN" },
  "webhooks.list": { call: (api) => api.webhooks.list({ accountId: a.accountId }), member: "resolved" },
  "webhooks.create": {
    call: (api) => api.webhooks.create({ accountId: a.accountId, url: "https://93.184.216.34/c" }),
    member: "FORBIDDEN",
  },
  "webhooks.update": { call: (api) => api.webhooks.update({ id: aEndpointId, enabled: false }), member: "FORBIDDEN" },
  "webhooks.delete": { call: (api) => api.webhooks.delete({ id: aEndpointId }), member: "FORBIDDEN" },
  "webhooks.rotateSecret": { call: (api) => api.webhooks.rotateSecret({ id: aEndpointId }), member: "FORBIDDEN" },
  "webhooks.sendTest": { call: (api) => api.webhooks.sendTest({ id: aEndpointId }), member: "FORBIDDEN" },
  "webhooks.deliveries": { call: (api) => api.webhooks.deliveries({ id: aEndpointId }), member: "resolved" },
  "webhooks.resend": { call: (api) => api.webhooks.resend({ id: aDeliveryId }), member: "FORBIDDEN" },
  "webhooks.orderEvents": {
    call: (api) => api.webhooks.orderEvents({ accountId: a.accountId, orderId: aOrder.id }),
    member: "resolved",
  },
  "webhooks.orderEvents (B's account, A's order)": {
    call: (api) => api.webhooks.orderEvents({ accountId: b.accountId, orderId: aOrder.id }),
    member: null,
  },
};

/** Procedures with no id or account in their input: nothing of another tenant to name. */
const WITHOUT_TENANT_INPUT = [
  "accounts.mine",
  "accounts.all",
  "courierProfiles.couriers",
  "overview.staff",
  "statistics.byAccount",
];

const procedureOf = (row: string) => row.split(" ")[0]!;

describe("tRPC: B's dashboard session with A's ids and account", () => {
  let aValidationResultIdLoaded = false;
  beforeAll(async () => {
    const [row] = await (
      await getDb()
    )
      .select({ id: validationResults.id })
      .from(validationResults)
      .where(eq(validationResults.accountId, a.accountId))
      .limit(1);
    aValidationResultId = row!.id;
    aValidationResultIdLoaded = true;
  });

  it("covers every procedure of the router (a new procedure needs a row in this matrix)", () => {
    expect(aValidationResultIdLoaded).toBe(true);
    const procedures = Object.keys(
      (appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures,
    ).sort();
    const covered = new Set(Object.keys(matrix).map(procedureOf));
    expect(procedures.filter((p) => !covered.has(p) && !WITHOUT_TENANT_INPUT.includes(p))).toEqual([]);
  });

  it.each(Object.keys(matrix))("%s → NOT_FOUND", async (name) => {
    const api = await callerFor(b);
    figures.cases += 1;
    expect(await outcome(matrix[name]!.call(api))).toBe("NOT_FOUND");
  });

  it("B's order list filtered by A's ids is empty", async () => {
    const api = await callerFor(b);
    figures.cases += 1;
    const page = await api.shippingOrders.list({
      accountId: b.accountId,
      ids: [aOrder.id],
      shippingNumbers: aOrder.shippingNumber,
    });
    expect(page.items).toEqual([]);
  });

  it("B's validation history without an accountId is refused, not A's", async () => {
    const api = await callerFor(b);
    figures.cases += 1;
    expect(await outcome(api.validationResults.list({}))).toBe("BAD_REQUEST");
  });

  it.each(
    Object.entries(matrix)
      .filter(([, row]) => row.member !== null)
      .map(([name, row]) => [name, row.member]),
  )("%s by a member of A → %s", async (name) => {
    const api = await callerFor(member);
    figures.cases += 1;
    expect(await outcome(matrix[name]!.call(api))).toBe(matrix[name]!.member);
  });
});
