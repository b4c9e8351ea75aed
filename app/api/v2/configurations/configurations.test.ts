import { describe, expect, it } from "vitest";
import { readJson } from "@/test/helpers";
import { activatePair, as, createPartner } from "@/test/partner";
import * as couriers from "../couriers/route";
import * as profiles from "./courier-profiles/route";
import * as sources from "./sources/route";

describe("configurations", () => {
  it("lists couriers with services, countries, weight limit and COD", async () => {
    const partner = await createPartner();
    const body = await readJson<{ items: Record<string, unknown>[] }>(
      await as(partner)(couriers.GET, "/api/v2/couriers"),
    );
    expect(body.items).toEqual([
      expect.objectContaining({
        id: "sandbox",
        services: ["STANDARD", "EXPRESS", "PICKUP_POINT"],
        maxParcelWeightKg: 31.5,
        cod: true,
        codCurrencies: ["CZK", "EUR", "PLN", "HUF"],
      }),
      expect.objectContaining({ id: "packeta", services: ["PICKUP_POINT", "HOME"], cod: true }),
      expect.objectContaining({
        id: "ppl",
        services: ["PRIVATE", "BUSINESS", "PARCELSHOP", "INTERNATIONAL"],
        cod: true,
      }),
    ]);
    expect(body.items[0]!.countries).toContain("CZ");
    expect(body.items[0]!.countries).not.toContain("US");
  });

  it("lists sources with api/default always first, grouped by ReferenceSource", async () => {
    const partner = await createPartner();
    await activatePair(partner, "shop", "cz");
    await activatePair(partner, "shop", "sk");
    const body = await readJson<{ items: unknown[] }>(await as(partner)(sources.GET, "/api/v2/configurations/sources"));
    expect(body.items).toEqual([
      { id: "api", name: "API", profiles: [{ id: "default", name: "Default" }] },
      {
        id: "shop",
        name: "shop",
        profiles: [
          { id: "cz", name: "cz" },
          { id: "sk", name: "sk" },
        ],
      },
    ]);
    const fresh = await createPartner();
    expect(
      (await readJson<{ items: unknown[] }>(await as(fresh)(sources.GET, "/api/v2/configurations/sources"))).items,
    ).toHaveLength(1);
  });

  it("lists the key's account's courier profiles only, and needs configurations:read", async () => {
    const partner = await createPartner();
    const body = await readJson<{ items: { id: string; isDefault: boolean }[] }>(
      await as(partner)(profiles.GET, "/api/v2/configurations/courier-profiles"),
    );
    // The test partner's default profile, then the one the account started with.
    expect(body.items).toEqual([
      expect.objectContaining({ id: partner.profileId, courier: "sandbox", isDefault: true, service: "STANDARD" }),
      expect.objectContaining({ courier: "sandbox", isDefault: false, name: "Sandbox" }),
    ]);
    const limited = await createPartner({ permissions: ["shipping-orders:read"] });
    expect((await as(limited)(profiles.GET, "/api/v2/configurations/courier-profiles")).status).toBe(403);
  });
});
