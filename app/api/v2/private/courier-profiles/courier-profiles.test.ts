import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
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
});
