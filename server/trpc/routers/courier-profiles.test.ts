import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { AppError } from "@/server/errors";
import { callerFor, failure, suiteUsers } from "@/test/trpc";

describe("tRPC courierProfiles", () => {
  const users = suiteUsers();

  it("lists the couriers' capabilities for the profile form", async () => {
    const couriers = await (await callerFor(users.owner)).courierProfiles.couriers();
    const sandbox = couriers.find((c) => c.id === "sandbox")!;
    expect(sandbox.services.map((s) => s.code)).toEqual(["STANDARD", "EXPRESS", "PICKUP_POINT"]);
  });

  it("creates profiles, makes the first the default and moves the default on request", async () => {
    // An account without a profile for the courier (the starting one removed), as for a courier added later.
    await (await getDb()).delete(courierProfiles).where(eq(courierProfiles.accountId, users.owner.accountId));
    const api = await callerFor(users.owner);
    const first = await api.courierProfiles.create({
      accountId: users.owner.accountId,
      courier: "sandbox",
      name: "Main",
    });
    const second = await api.courierProfiles.create({
      accountId: users.owner.accountId,
      courier: "sandbox",
      name: "Express",
      service: "EXPRESS",
      settings: { trackingStepMinutes: 5 },
    });
    expect(first.isDefault).toBe(true);
    expect(second.isDefault).toBe(false);
    await api.courierProfiles.setDefault({ id: second.id });
    const list = await api.courierProfiles.list({ accountId: users.owner.accountId });
    expect(list.items.filter((p) => p.isDefault).map((p) => p.id)).toEqual([second.id]);
  });

  it("answers NOT_FOUND for another account's profiles", async () => {
    const profile = await (
      await callerFor(users.owner)
    ).courierProfiles.create({ accountId: users.owner.accountId, courier: "sandbox", name: "Owner's" });
    const api = await callerFor(users.stranger);
    expect((await failure(api.courierProfiles.list({ accountId: users.owner.accountId }))).code).toBe("NOT_FOUND");
    expect(
      (
        await failure(
          api.courierProfiles.create({ accountId: users.owner.accountId, courier: "sandbox", name: "Intruder" }),
        )
      ).code,
    ).toBe("NOT_FOUND");
    expect((await failure(api.courierProfiles.setDefault({ id: profile.id }))).code).toBe("NOT_FOUND");
  });

  it("lets staff list any account's profiles", async () => {
    const profile = await (
      await callerFor(users.owner)
    ).courierProfiles.create({ accountId: users.owner.accountId, courier: "sandbox", name: "Supported" });
    const list = await (
      await callerFor(users.staff, { staff: true })
    ).courierProfiles.list({ accountId: users.owner.accountId });
    expect(list.items.map((p) => p.id)).toContain(profile.id);
  });

  it("keeps the field errors of settings the courier does not understand", async () => {
    const api = await callerFor(users.owner);
    const error = await failure(
      api.courierProfiles.create({
        accountId: users.owner.accountId,
        courier: "sandbox",
        name: "Odd",
        settings: { colour: "red" },
      }),
    );
    expect(error.code).toBe("BAD_REQUEST");
    expect((error.cause as AppError).errors?.[0]?.field).toMatch(/^settings/);
  });
});
