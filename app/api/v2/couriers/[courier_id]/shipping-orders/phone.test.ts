import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { shippingOrders } from "@/db/schema";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import * as item from "../../../shipping-orders/[id]/route";
import * as create from "./route";

/** Recipient.Phone as Czech and Slovak shops collect it: national, read by the recipient's country, kept in E.164. */

type Created = { items: { id: string; recipient: { phone: string | null } }[]; failed: unknown[] };
type Validation = { status: string; messages: { code: string; field: string; message: string }[] };

const PACKETA_PASSWORD = "phonePW456789abcdef0123456789xyz";
const PPL_ID = "phone-test-client";
const PPL_SECRET = "phone-test-client-secret-0123456";

let packeta: Awaited<ReturnType<typeof startFakePacketa>>;
let ppl: Awaited<ReturnType<typeof startFakePpl>>;
let partner: Partner;
beforeAll(async () => {
  packeta = await startFakePacketa({ password: PACKETA_PASSWORD });
  ppl = await startFakePpl({ clientId: PPL_ID, clientSecret: PPL_SECRET });
  process.env.COURIER_PACKETA_URL = packeta.url;
  process.env.COURIER_PPL_URL = ppl.url;
  partner = await createPartner();
  const actor = { userId: partner.userId, isStaff: false };
  for (const [courier, settings] of [
    ["packeta", { apiPassword: PACKETA_PASSWORD, sender: "shop" }],
    ["ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET }],
  ] as const)
    await createCourierProfile(await getDb(), actor, {
      accountId: partner.accountId,
      courier,
      name: courier,
      isDefault: true,
      settings,
    });
});
afterAll(async () => {
  await packeta.close();
  await ppl.close();
});

const post = (courier: string, body: unknown) =>
  as(partner)(create.POST, `/api/v2/couriers/${courier}/shipping-orders`, { body, params: { courier_id: courier } });

const recipient = (r: Record<string, unknown>) => ({ ...(order().Recipient as object), ...r });

describe("POST /couriers/{courier}/shipping-orders with a national Recipient.Phone", () => {
  it("answers, stores and returns the number in E.164", async () => {
    const response = await post(
      "sandbox",
      order({ ReferenceNumber: "PHONE-CZ", Recipient: recipient({ Phone: "777 123 456" }) }),
    );
    expect(response.status).toBe(200);
    const created = (await readJson<Created>(response)).items[0]!;
    expect(created.recipient.phone).toBe("+420777123456");
    const got = await as(partner)(item.GET, `/api/v2/shipping-orders/${created.id}`, { params: { id: created.id } });
    expect((await readJson<Created["items"][number]>(got)).recipient.phone).toBe("+420777123456");
    const [row] = await (await getDb()).select().from(shippingOrders).where(eq(shippingOrders.id, created.id));
    expect(row!.recipientPhone).toBe("+420777123456");
  });

  it("reads 00420 and a Slovak 09xx number by the recipient's country", async () => {
    const phones = [];
    for (const [reference, r] of [
      ["PHONE-00420", { Phone: "00420777123456" }],
      ["PHONE-SK", { Phone: "0912 345 678", Zip: "811 01", City: "Bratislava", Country: "SK" }],
    ] as const) {
      const response = await post("sandbox", order({ ReferenceNumber: reference, Recipient: recipient(r) }));
      phones.push((await readJson<Created>(response)).items[0]?.recipient.phone);
    }
    expect(phones).toEqual(["+420777123456", "+421912345678"]);
  });

  it("refuses a number that is not valid for its country: 400, an ERROR at Recipient.Phone", async () => {
    const response = await post(
      "sandbox",
      order({
        ReferenceNumber: "PHONE-BAD",
        Recipient: recipient({ Phone: "777 123 456", Zip: "811 01", City: "Bratislava", Country: "SK" }),
      }),
    );
    expect(response.status).toBe(400);
    expect((await readJson<Validation>(response)).messages).toEqual([
      {
        code: "INVALID_FORMAT",
        severity: "ERROR",
        field: "Recipient.Phone",
        message:
          "Recipient.Phone is not a valid phone number of SK; a number of another country needs + and its country code",
      },
    ]);
  });

  it("sends Packeta and PPL the E.164 number", async () => {
    const viaPacketa = await post(
      "packeta",
      order({
        ReferenceNumber: "PHONE-PK",
        PickupPoint: "4321",
        InsurancePrice: 100,
        Recipient: recipient({ Phone: "777 123 456" }),
      }),
    );
    expect((await readJson<Created>(viaPacketa)).items).toHaveLength(1);
    const packets = packeta.requests.filter((r) => r.operation.startsWith("createPacket"));
    expect(packets.map((r) => /<phone>([^<]*)<\/phone>/.exec(r.xml)?.[1])).toEqual(["+420777123456"]);

    const viaPpl = await post(
      "ppl",
      order({ ReferenceNumber: "PHONE-PPL", Recipient: recipient({ Phone: "777 123 456" }) }),
    );
    expect((await readJson<Created>(viaPpl)).items).toHaveLength(1);
    const batches = ppl.requests.filter((r) => r.method === "POST" && r.path.endsWith("/shipment/batch"));
    expect(
      batches.map((r) => (r.body as { shipments: { recipient: { phone?: string } }[] }).shipments[0]!.recipient.phone),
    ).toEqual(["+420777123456"]);
  });
});
