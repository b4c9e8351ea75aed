import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { courierAttempts, packetaCarriers, pickupPoints, pickupPointSyncs } from "@/db/schema";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import type { DirectoryPoint } from "@/server/pickup-points/directory-point";
import { readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { runOnOwnDatabase } from "@/test/own-database";
import { insertDirectoryPoints } from "@/test/pickup-points";
import * as create from "../route";
import * as validate from "./route";

// It marks couriers' directories synced: in the run's shared database that would make every other file's made-up
// PickupPoint unknown.
await runOnOwnDatabase();

/**
 * Contract "Pickup points" → "Validation before dispatch", through the real validate and create routes: each rule
 * at its field with suggestions (nearest first, accepting the order, none closed), NOT_VERIFIED while a directory
 * was never synced, Packeta HOME against its carrier, one query for a batch of 500 and no courier call for an
 * order refused by these rules. Point ids are this file's own (9xxxxx, PT9xxxxx), so other files' points do not
 * interfere on a shared PostgreSQL database.
 */

type Message = {
  code: string;
  severity: string;
  field: string | null;
  message: string;
  suggestions?: { value: string; text: string }[];
};
type Result = { status: string; referenceNumber: string | null; messages: Message[] };

/**
 * Far from every town of the synthetic directory (other files seed it on a shared PostgreSQL database), with a zip
 * of its own, so the nearest points and the zip's centre are this file's.
 */
const CENTRE = { lat: 49.45, lon: 15.0 };
const ZIP = "399 99";
const north = (km: number) => CENTRE.lat + km / 111.32;
const south = (km: number) => CENTRE.lat - km / 111.32;
const RECIPIENT = {
  Name: "Jana Nováková",
  Street: "Dlouhá 12",
  City: "Horní Dolní",
  Zip: ZIP,
  Country: "CZ",
  Email: "jana@example.com",
  Phone: "+420777123456",
};

const point = (over: Partial<DirectoryPoint> & { id: string }): DirectoryPoint => ({
  courier: "packeta",
  type: "POINT",
  network: "packeta",
  name: `Point ${over.id}`,
  street: "Dlouhá 1",
  city: "Horní Dolní",
  zip: ZIP,
  country: "CZ",
  latitude: CENTRE.lat,
  longitude: CENTRE.lon,
  openingHours: [],
  cod: true,
  cardPayment: true,
  maxWeightKg: null,
  maxSizeCm: null,
  open: true,
  closedSince: null,
  ...over,
});

// The named points, each failing one rule, and around them the candidates for suggestions.
const POINTS: DirectoryPoint[] = [
  point({ id: "900001", maxWeightKg: 5, latitude: south(2.5) }), // the good one (up to 5 kg)
  point({ id: "900002", open: false, closedSince: "2026-11-01" }),
  point({ id: "900003", country: "SK", city: "Bratislava", zip: "811 01", latitude: 48.1486, longitude: 17.1077 }),
  point({ id: "900004", cod: false }),
  point({
    id: "900005",
    latitude: south(3),
    type: "LOCKER",
    network: "zbox",
    maxWeightKg: 15,
    maxSizeCm: { length: 40, width: 30, height: 20 },
  }),
  // Candidates, by distance north of the centre: a closed one and a no-COD one nearest, then accepting ones.
  point({ id: "900101", latitude: north(0.1), open: false, closedSince: "2026-11-01" }),
  point({ id: "900102", latitude: north(0.2), cod: false }),
  point({ id: "900103", latitude: north(0.3), maxWeightKg: 2 }),
  point({ id: "900104", latitude: north(0.4), name: "Trafika U Nádraží" }),
  point({ id: "900105", latitude: north(0.6) }),
  point({ id: "900106", latitude: north(0.8) }),
  point({ id: "900107", latitude: north(1.5) }),
  // Another country's point near the centre: never suggested to a CZ recipient.
  point({ id: "900108", latitude: north(0.05), country: "SK" }),
];

const PPL_POINTS: DirectoryPoint[] = [
  point({ id: "PT900001", courier: "ppl", network: "parcelshop", cod: false }),
  point({ id: "PT900002", courier: "ppl", network: "parcelshop", latitude: north(0.3) }),
];

let partner: Partner;
let packetaProfile: string;
let pplProfile: string;
let homeProfile: string;
let fakePacketa: Server;
let packetaCalls = 0;

async function profile(courier: "packeta" | "ppl", service: string, settings: Record<string, unknown>) {
  const db = await getDb();
  const created = await createCourierProfile(
    db,
    { userId: partner.userId, isStaff: false },
    { accountId: partner.accountId, courier, name: `${courier} ${service}`, service, settings },
  );
  return created.id;
}

const packetaSettings = { apiPassword: "p".repeat(32), sender: "shop" };
const pickupOrder = (over: Record<string, unknown> = {}) =>
  order({ Recipient: RECIPIENT, PickupPoint: "900001", InsurancePrice: 1000, ...over });

async function send(courier: string, profileId: string, body: unknown, handler: unknown = validate.POST) {
  const path =
    handler === validate.POST
      ? `/api/v2/couriers/${courier}/shipping-orders/validate?profile=${profileId}`
      : `/api/v2/couriers/${courier}/shipping-orders?profile=${profileId}`;
  return as(partner)(handler, path, {
    rawBody: JSON.stringify(body),
    headers: {
      "content-type": Array.isArray(body)
        ? "application/svc.shipping-orders+json"
        : "application/svc.shipping-order+json",
    },
    params: { courier_id: courier },
  });
}

const check = async (courier: string, profileId: string, body: unknown) => {
  const response = await send(courier, profileId, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return readJson<Result>(response);
};

const codes = (r: Result) => r.messages.map((m) => `${m.code}@${m.field}`);

async function markSynced(db: Db, courier: string, synced: boolean) {
  const feed = `test-${courier}-points`;
  await db.delete(pickupPointSyncs).where(eq(pickupPointSyncs.feed, feed));
  if (synced) await db.insert(pickupPointSyncs).values({ feed, courier, lastSuccessAt: new Date(), lastCount: 1 });
}

beforeAll(async () => {
  // Packeta's create goes to a server that counts calls: an order refused by these rules must never reach it.
  fakePacketa = createServer((req, res) => {
    packetaCalls++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => fakePacketa.listen(0, "127.0.0.1", resolve));
  process.env.COURIER_PACKETA_URL = `http://127.0.0.1:${(fakePacketa.address() as AddressInfo).port}`;
  // A batch of 500 counts as 500 requests against the key's limit.
  partner = await createPartner({ rateLimitPerMinute: 100_000 });
  packetaProfile = await profile("packeta", "PICKUP_POINT", packetaSettings);
  homeProfile = await profile("packeta", "HOME", {
    ...packetaSettings,
    homeDeliveryCarriers: { CZ: 99106, SK: 99131 },
  });
  pplProfile = await profile("ppl", "PARCELSHOP", { clientId: "c", clientSecret: "s".repeat(12), environment: "test" });
  const db = await getDb();
  await insertDirectoryPoints(db, [...POINTS, ...PPL_POINTS]);
});

afterAll(async () => {
  const db = await getDb();
  await db.delete(pickupPoints).where(
    inArray(
      pickupPoints.id,
      [...POINTS, ...PPL_POINTS].map((p) => p.id),
    ),
  );
  await db.delete(packetaCarriers).where(inArray(packetaCarriers.id, ["99106", "99131"]));
  await markSynced(db, "packeta", false);
  await markSynced(db, "ppl", false);
  await new Promise((resolve) => fakePacketa.close(resolve));
});

describe("pickup points: validation before dispatch", () => {
  it("warns PICKUP_POINT_NOT_VERIFIED while the courier's directory was never synced, and checks once it was", async () => {
    const db = await getDb();
    await markSynced(db, "ppl", false);
    const unknown = order({ Recipient: RECIPIENT, Service: "PARCELSHOP", PickupPoint: "PT999999" });
    const before = await check("ppl", pplProfile, unknown);
    expect(before.status).toBe("WARNING");
    expect(before.messages).toEqual([
      expect.objectContaining({ code: "PICKUP_POINT_NOT_VERIFIED", severity: "WARNING", field: "PickupPoint" }),
    ]);
    await markSynced(db, "ppl", true);
    const after = await check("ppl", pplProfile, unknown);
    expect(after.status).toBe("ERROR");
    expect(codes(after)).toEqual(["PICKUP_POINT_UNKNOWN@PickupPoint"]);
    // Suggested from the recipient's zip: PPL's points there, never another courier's.
    expect(after.messages[0]!.suggestions!.map((s) => s.value)).toEqual(["PT900001", "PT900002"]);
  });

  describe("Packeta PICKUP_POINT, directory synced", () => {
    beforeAll(async () => markSynced(await getDb(), "packeta", true));

    it("passes an order its point accepts", async () => {
      expect(await check("packeta", packetaProfile, pickupOrder())).toEqual({
        status: "OK",
        referenceNumber: expect.any(String),
        messages: [],
      });
    });

    it("each rule is an ERROR at its field, with up to 3 suggestions: nearest first, open, accepting the order", async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ PickupPoint: "999999" }, ["PICKUP_POINT_UNKNOWN@PickupPoint"]],
        [{ PickupPoint: "900002" }, ["PICKUP_POINT_CLOSED@PickupPoint"]],
        [{ PickupPoint: "900003" }, ["PICKUP_POINT_COUNTRY@PickupPoint"]],
        [{ PickupPoint: "900004", CodPrice: 500, CodCurrency: "CZK" }, ["PICKUP_POINT_NO_COD@CodPrice"]],
        [
          { PickupPoint: "900001", Parcels: [{ Weight: 1 }, { Weight: 6 }] },
          ["PICKUP_POINT_TOO_HEAVY@Parcels[1].Weight"],
        ],
        [
          { PickupPoint: "900005", Parcels: [{ Weight: 3, Length: 45, Width: 20, Height: 10 }] },
          ["PICKUP_POINT_TOO_LARGE@Parcels[0]"],
        ],
      ];
      for (const [over, expected] of cases) {
        const result = await check("packeta", packetaProfile, pickupOrder(over));
        expect(result.status, JSON.stringify(over)).toBe("ERROR");
        expect(codes(result), JSON.stringify(over)).toEqual(expected);
        const suggestions = result.messages[0]!.suggestions!;
        expect(suggestions.length, JSON.stringify(over)).toBeGreaterThan(0);
        expect(suggestions.length).toBeLessThanOrEqual(3);
        const ids = suggestions.map((s) => s.value);
        // Never the named point, a closed one, another country's one.
        expect(ids).not.toContain(over.PickupPoint);
        expect(ids).not.toContain("900101");
        expect(ids).not.toContain("900108");
        // Each suggestion accepts the order: validating the order with it passes.
        for (const id of ids) {
          const retry = await check("packeta", packetaProfile, pickupOrder({ ...over, PickupPoint: id }));
          expect(retry.status, `${JSON.stringify(over)} → ${id}`).toBe("OK");
        }
      }
    });

    it("orders suggestions by distance and names each with its address and distance", async () => {
      const cod = await check(
        "packeta",
        packetaProfile,
        pickupOrder({ PickupPoint: "900004", CodPrice: 500, CodCurrency: "CZK", Parcels: [{ Weight: 3 }] }),
      );
      // 900101 closed, 900102 no COD, 900103 takes 2 kg only: the next three by distance.
      expect(cod.messages[0]!.suggestions).toEqual([
        { value: "900104", text: "Trafika U Nádraží, Dlouhá 1, 399 99 Horní Dolní (0.4 km)" },
        { value: "900105", text: expect.stringMatching(/^Point 900105, Dlouhá 1, 399 99 Horní Dolní \(0\.6 km\)$/) },
        { value: "900106", text: expect.stringMatching(/\(0\.8 km\)$/) },
      ]);
      // Without COD and light, the no-COD points (900004 beside the closed one) and the 2 kg one are nearest.
      const light = await check(
        "packeta",
        packetaProfile,
        pickupOrder({ PickupPoint: "900002", Parcels: [{ Weight: 1 }] }),
      );
      expect(light.messages[0]!.suggestions!.map((s) => s.value)).toEqual(["900004", "900102", "900103"]);
    });

    it("create refuses such an order with the validation answer and calls no courier", async () => {
      const db = await getDb();
      const callsBefore = packetaCalls;
      const response = await send("packeta", packetaProfile, pickupOrder({ PickupPoint: "900002" }), create.POST);
      expect(response.status).toBe(400);
      const body = await readJson<Result>(response);
      expect(codes(body)).toEqual(["PICKUP_POINT_CLOSED@PickupPoint"]);
      expect(body.messages[0]!.suggestions!.length).toBeGreaterThan(0);
      expect(packetaCalls).toBe(callsBefore);
      const attempts = await db
        .select()
        .from(courierAttempts)
        .where(and(eq(courierAttempts.accountId, partner.accountId)));
      expect(attempts).toEqual([]);
    });

    it("checks a batch of 500 in one query for the points and one for all suggestions", async () => {
      const db = await getDb();
      const batch = Array.from({ length: 500 }, (_, i) =>
        pickupOrder({ ReferenceNumber: `BATCH-${i}`, PickupPoint: i % 50 === 0 ? "900002" : "900001" }),
      );
      const statements: string[] = [];
      const logger = (db as unknown as { session: { logger: { logQuery: (q: string) => void } } }).session.logger;
      const original = logger.logQuery;
      logger.logQuery = (query: string) => {
        statements.push(query);
      };
      let results: Result[];
      try {
        results = await check("packeta", packetaProfile, batch).then((r) => r as unknown as Result[]);
      } finally {
        logger.logQuery = original;
      }
      expect(results.filter((r) => r.status === "ERROR")).toHaveLength(10);
      expect(results.filter((r) => r.status === "OK")).toHaveLength(490);
      const directoryQueries = statements.filter((q) => /pickup_points|packeta_carriers|pickup_point_syncs/.test(q));
      expect(directoryQueries).toHaveLength(2);
      // The same batch with every point good: the lookup only, no suggestion query.
      statements.length = 0;
      logger.logQuery = (query: string) => {
        statements.push(query);
      };
      try {
        await check(
          "packeta",
          packetaProfile,
          batch.map((o) => ({ ...o, PickupPoint: "900001" })),
        );
      } finally {
        logger.logQuery = original;
      }
      expect(statements.filter((q) => /pickup_points|packeta_carriers|pickup_point_syncs/.test(q))).toHaveLength(1);
    });
  });

  describe("Packeta HOME against its carrier (packeta_carriers)", () => {
    const home = (over: Record<string, unknown> = {}) => order({ Service: "HOME", InsurancePrice: 1000, ...over });

    it("warns CARRIER_NOT_VERIFIED while the carrier feed was never synced, and sends as before", async () => {
      const db = await getDb();
      await db.delete(packetaCarriers).where(inArray(packetaCarriers.id, ["99106", "99131"]));
      const empty = (await db.select().from(packetaCarriers).limit(1)).length === 0;
      // On a database another file filled with carriers, the table is not empty: the unknown carrier is an error.
      const result = await check("packeta", homeProfile, home());
      if (empty) {
        expect(result.status).toBe("WARNING");
        expect(codes(result)).toEqual(["CARRIER_NOT_VERIFIED@Service"]);
      } else {
        expect(codes(result)).toEqual(["CARRIER_UNKNOWN@Recipient.Country"]);
      }
    });

    it("checks phone, e-mail, house number, size, COD and weight against the carrier's requirements", async () => {
      const db = await getDb();
      const carrier = {
        name: "CZ Home",
        country: "CZ",
        currency: "CZK",
        available: true,
        pickupPoints: false,
        apiAllowed: true,
        separateHouseNumber: true,
        customsDeclarations: false,
        requiresEmail: true,
        requiresPhone: true,
        requiresSize: true,
        disallowsCod: true,
        maxWeightKg: 10,
        seenAt: new Date(),
      };
      await db
        .insert(packetaCarriers)
        .values([
          { id: "99106", ...carrier },
          { id: "99131", ...carrier, country: "SK", available: false },
        ])
        .onConflictDoNothing();
      const sized = { Weight: 2, Length: 30, Width: 20, Height: 10 };
      expect(await check("packeta", homeProfile, home({ Parcels: [sized] }))).toMatchObject({
        status: "OK",
        messages: [],
      });
      const bad = await check(
        "packeta",
        homeProfile,
        home({
          Recipient: {
            Name: "Jana Nováková",
            Street: "Dlouhá",
            City: "Praha",
            Zip: "110 00",
            Country: "CZ",
            Email: "j@example.com",
          },
          CodPrice: 100,
          CodCurrency: "CZK",
          Parcels: [{ Weight: 2 }, { ...sized, Weight: 12 }],
        }),
      );
      expect(bad.status).toBe("ERROR");
      expect(codes(bad).sort()).toEqual(
        [
          "REQUIRED@Recipient.Phone",
          "REQUIRED@Recipient.Street",
          "COD_NOT_SUPPORTED@CodPrice",
          "REQUIRED@Parcels[0]",
          "WEIGHT_LIMIT_EXCEEDED@Parcels[1].Weight",
        ].sort(),
      );
      const sk = await check(
        "packeta",
        homeProfile,
        home({
          Recipient: {
            Name: "Jana",
            Street: "Hlavná 5",
            City: "Bratislava",
            Zip: "811 01",
            Country: "SK",
            Phone: "+421900111222",
            Email: "j@example.com",
          },
          Parcels: [sized],
        }),
      );
      expect(codes(sk)).toEqual(["CARRIER_UNAVAILABLE@Recipient.Country"]);
      const callsBefore = packetaCalls;
      expect((await send("packeta", homeProfile, home(), create.POST)).status).toBe(400);
      expect(packetaCalls).toBe(callsBefore);
    });
  });
});
