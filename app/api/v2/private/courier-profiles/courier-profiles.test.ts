import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { PROFILES_PER_COURIER } from "@/server/services/courier-profiles/schemas";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { callerFor, failure } from "@/test/trpc";
import * as one from "./[id]/route";
import * as collection from "./route";

type Profile = {
  id: string;
  courier: string;
  name: string;
  service: string | null;
  isDefault: boolean;
  settings: Record<string, unknown>;
};

describe("private API: courier profiles", () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
  });
  const create = (body: Record<string, unknown>, user = owner) =>
    call(collection.POST, "/api/v2/private/courier-profiles", {
      token: user.token,
      body: { accountId: owner.accountId, courier: "sandbox", ...body },
    });
  const list = async () =>
    (
      await readJson<{ items: Profile[] }>(
        await call(collection.GET, `/api/v2/private/courier-profiles?accountId=${owner.accountId}`, {
          token: owner.token,
        }),
      )
    ).items;

  it("starts every account with a default sandbox profile", async () => {
    expect(await list()).toEqual([
      expect.objectContaining({ courier: "sandbox", name: "Sandbox", service: "STANDARD", isDefault: true }),
    ]);
  });

  it("makes the first profile of a courier its default, and a later isDefault take over", async () => {
    // An account without a profile for the courier (the starting one removed), as for a courier added later.
    await (await getDb()).delete(courierProfiles).where(eq(courierProfiles.accountId, owner.accountId));
    const first = await create({ name: "Main", service: "STANDARD", settings: { trackingStepMinutes: 5 } });
    expect(first.status).toBe(201);
    expect(await readJson<Profile>(first)).toMatchObject({
      courier: "sandbox",
      name: "Main",
      service: "STANDARD",
      isDefault: true,
      settings: { trackingStepMinutes: 5 },
    });
    const second = await readJson<Profile>(await create({ name: "Second" }));
    expect(second).toMatchObject({ isDefault: false, service: null, settings: {} });
    const third = await readJson<Profile>(await create({ name: "Third", isDefault: true }));
    expect(third.isDefault).toBe(true);
    expect((await list()).filter((p) => p.isDefault).map((p) => p.name)).toEqual(["Third"]);
  });

  it("refuses unknown couriers, services and settings with 400 naming the field", async () => {
    for (const [body, field] of [
      [{ courier: "acme", name: "x" }, "courier"],
      [{ name: "x", service: "OVERNIGHT" }, "service"],
      [{ name: "x", settings: { timeoutMs: -5 } }, "settings.timeoutMs"],
      [{ name: "" }, "name"],
    ] as const) {
      const response = await create(body);
      expect(response.status, field).toBe(400);
      expect((await readJson<{ errors: { field: string }[] }>(response)).errors.map((e) => e.field)).toContain(field);
    }
  });

  it("answers 404 for another account", async () => {
    const stranger = await createTestUser();
    expect((await create({ name: "x" }, stranger)).status).toBe(404);
    expect(
      (
        await call(collection.GET, `/api/v2/private/courier-profiles?accountId=${owner.accountId}`, {
          token: stranger.token,
        })
      ).status,
    ).toBe(404);
  });

  it(`caps an account at ${PROFILES_PER_COURIER} profiles of one courier: 409 naming the limit on both doors`, async () => {
    const partner = await createTestUser();
    const createFor = (body: Record<string, unknown>) =>
      call(collection.POST, "/api/v2/private/courier-profiles", {
        token: partner.token,
        body: { accountId: partner.accountId, courier: "sandbox", ...body },
      });
    // Every account starts with its sandbox profile.
    let last: Profile | undefined;
    for (let i = 1; i < PROFILES_PER_COURIER; i++) {
      const created = await createFor({ name: `Sandbox ${i}` });
      expect(created.status, `profile ${i + 1}`).toBe(201);
      last = await readJson<Profile>(created);
    }
    const refused = await createFor({ name: "One too many" });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    const problem = await readJson<{ detail: string; errors: { field: string; message: string }[] }>(refused);
    expect(problem.detail).toContain(`at most ${PROFILES_PER_COURIER} sandbox profiles`);
    expect(problem.errors.map((e) => e.field)).toEqual(["courier"]);
    const dashboard = await callerFor(partner);
    const viaDashboard = await failure(
      dashboard.courierProfiles.create({ accountId: partner.accountId, courier: "sandbox", name: "One too many" }),
    );
    expect(viaDashboard.code).toBe("CONFLICT");
    expect(viaDashboard.message).toContain(`at most ${PROFILES_PER_COURIER} sandbox profiles`);
    // The cap is per courier, and a deleted profile makes room.
    expect(
      (
        await createFor({
          courier: "packeta",
          name: "Packeta",
          settings: { apiPassword: "p".repeat(32), sender: "shop" },
        })
      ).status,
    ).toBe(201);
    const deleted = await call(one.DELETE, `/api/v2/private/courier-profiles/${last!.id}`, {
      method: "DELETE",
      token: partner.token,
      params: { id: last!.id },
    });
    expect(deleted.status).toBe(204);
    expect((await createFor({ name: "In its place" })).status).toBe(201);
  });
});
