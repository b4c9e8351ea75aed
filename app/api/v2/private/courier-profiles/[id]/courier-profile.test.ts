import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as order from "@/app/api/v2/shipping-orders/[id]/route";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { as, createPartner, order as orderBody } from "@/test/partner";
import * as collection from "../route";
import * as item from "./route";

type Profile = {
  id: string;
  name: string;
  service: string | null;
  isDefault: boolean;
  settings: Record<string, unknown>;
};

const path = (id: string) => `/api/v2/private/courier-profiles/${id}`;
const patch = (user: TestUser, id: string, body: unknown, headers?: Record<string, string>) =>
  call(item.PATCH, path(id), { method: "PATCH", token: user.token, body, headers, params: { id } });
const remove = (user: TestUser, id: string) =>
  call(item.DELETE, path(id), { method: "DELETE", token: user.token, params: { id } });
const list = async (user: TestUser) =>
  (
    await readJson<{ items: Profile[] }>(
      await call(collection.GET, `/api/v2/private/courier-profiles?accountId=${user.accountId}`, { token: user.token }),
    )
  ).items;
const createProfile = async (user: TestUser, body: Record<string, unknown>) =>
  readJson<Profile>(
    await call(collection.POST, "/api/v2/private/courier-profiles", {
      token: user.token,
      body: { accountId: user.accountId, courier: "sandbox", ...body },
    }),
  );

describe("private API: change and delete a courier profile", () => {
  it("changes name, service and settings, checked by the courier; fields not given stay", async () => {
    const owner = await createTestUser();
    const profile = await createProfile(owner, { name: "Main", service: "STANDARD", settings: { timeoutMs: 5000 } });
    const renamed = await patch(owner, profile.id, { name: "  Warehouse 2 " });
    expect(renamed.status).toBe(200);
    expect(await readJson<Profile>(renamed)).toMatchObject({
      name: "Warehouse 2",
      service: "STANDARD",
      settings: { timeoutMs: 5000 },
    });
    const merged = await patch(
      owner,
      profile.id,
      { service: "EXPRESS", settings: {} },
      {
        "content-type": "application/merge-patch+json",
      },
    );
    expect(await readJson<Profile>(merged)).toMatchObject({ name: "Warehouse 2", service: "EXPRESS", settings: {} });

    for (const [body, field] of [
      [{}, "body"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ service: "OVERNIGHT" }, "service"],
      [{ settings: { timeoutMs: -1 } }, "settings.timeoutMs"],
      // An unknown key is named by its own path, not its object's (issue 28: `settings.body`).
      [{ settings: { colour: "red" } }, "settings.colour"],
      [{ courier: "other" }, "courier"],
    ] as const) {
      const refused = await patch(owner, profile.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      const problem = await readJson<{ errors: { field: string }[] }>(refused);
      expect(
        problem.errors.map((e) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect((await list(owner)).find((p) => p.id === profile.id)).toMatchObject({
      name: "Warehouse 2",
      service: "EXPRESS",
    });
    const audit = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, profile.id), eq(auditEvents.action, "courier_profile.updated")));
    expect(audit).toHaveLength(2);
  });

  it("deletes an unused profile, archives a used one (its orders keep working), and hands the default over", async () => {
    const partner = await createPartner();
    const spare = await createProfile(partner, { name: "Spare" });
    const created = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: orderBody(),
      params: { courier_id: "sandbox" },
    });
    const orderId = (await readJson<{ items: { id: string }[] }>(created)).items[0]!.id;

    // The default profile took the order: archived, not deleted; another of the account's profiles becomes the default.
    expect((await remove(partner, partner.profileId)).status).toBe(204);
    const left = await list(partner);
    expect(left.map((p) => p.id)).not.toContain(partner.profileId);
    expect(left.map((p) => p.id)).toContain(spare.id);
    expect(left.filter((p) => p.isDefault)).toHaveLength(1);
    expect(
      (await as(partner)(order.GET, `/api/v2/shipping-orders/${orderId}`, { params: { id: orderId } })).status,
    ).toBe(200);
    const withArchived = await as(partner)(
      create.POST,
      `/api/v2/couriers/sandbox/shipping-orders?profile=${partner.profileId}`,
      { body: orderBody(), params: { courier_id: "sandbox" } },
    );
    expect(withArchived.status).toBe(404);
    expect((await patch(partner, partner.profileId, { name: "back" })).status).toBe(404);
    expect((await remove(partner, partner.profileId)).status).toBe(404);

    // The spare took no order: deleted outright.
    expect((await remove(partner, spare.id)).status).toBe(204);
    expect((await list(partner)).map((p) => p.id)).not.toContain(spare.id);
    const actions = (
      await (await getDb()).select().from(auditEvents).where(eq(auditEvents.accountId, partner.accountId))
    ).map((e) => [e.action, e.targetId]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ["courier_profile.archived", partner.profileId],
        ["courier_profile.deleted", spare.id],
      ]),
    );
  });

  it("lets only owners and staff change or delete, and answers 404 for another account's profile", async () => {
    const owner = await createTestUser();
    const profile = await createProfile(owner, { name: "Mine" });
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    const stranger = await createTestUser();
    expect((await patch(member, profile.id, { name: "x" })).status).toBe(403);
    expect((await remove(member, profile.id)).status).toBe(403);
    expect((await patch(stranger, profile.id, { name: "x" })).status).toBe(404);
    expect((await remove(stranger, profile.id)).status).toBe(404);
    expect((await remove(owner, "not-a-uuid")).status).toBe(404);
    const staff = await createTestUser({ staff: true });
    expect((await patch(staff, profile.id, { name: "By staff" })).status).toBe(200);
    expect((await list(owner)).find((p) => p.id === profile.id)).toMatchObject({ name: "By staff" });
  });
});
