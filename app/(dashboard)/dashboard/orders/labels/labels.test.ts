import type { Session } from "next-auth";
import { PDFDocument } from "pdf-lib";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import type { Problem } from "@/server/http/problem";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { sessionOf } from "@/test/trpc";
import { GET } from "./route";

// The route reads the next-auth session from the request's cookies; here the session is simply given.
const session = vi.hoisted(() => ({ current: null as Session | null }));
vi.mock("@/server/auth/next-auth", () => ({ getSession: async () => session.current }));

describe("the dashboard's labels of chosen orders", () => {
  let partner: Partner;
  let member: TestUser;
  let stranger: TestUser;
  let numbers: string[];
  const get = (accountId: string, query: string) =>
    call(GET, `/dashboard/orders/labels?account=${accountId}&${query}`, {});

  beforeAll(async () => {
    partner = await createPartner();
    member = await createTestUser({ accountId: partner.accountId, role: "member" });
    stranger = await createTestUser();
    const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: [
        order({ ReferenceNumber: `A-${crypto.randomUUID()}`, Parcels: [{ Weight: 1 }, { Weight: 2 }] }),
        order({ ReferenceNumber: `B-${crypto.randomUUID()}` }),
      ],
      params: { courier_id: "sandbox" },
    });
    const { items } = await readJson<{ items: { shippingNumber: string[] }[] }>(response);
    numbers = items.flatMap((i) => i.shippingNumber);
    expect(numbers).toHaveLength(3);
  });
  beforeEach(() => {
    session.current = null;
  });

  it("answers one document with a label per number to a member, four to an A4 sheet across orders", async () => {
    session.current = sessionOf(member);
    const a6 = await get(partner.accountId, `shippingNumbers=${numbers.join(",")}`);
    expect(a6.status).toBe(200);
    expect(a6.headers.get("content-type")).toBe("application/pdf");
    expect((await PDFDocument.load(new Uint8Array(await a6.arrayBuffer()))).getPageCount()).toBe(3);
    const a4 = await get(partner.accountId, `shippingNumbers=${numbers.join(",")}&format=pdf-a4`);
    expect((await PDFDocument.load(new Uint8Array(await a4.arrayBuffer()))).getPageCount()).toBe(1);
    const zpl = await get(partner.accountId, `shippingNumbers=${numbers.join(",")}&format=zpl&download=1`);
    expect((await zpl.text()).match(/\^XA/g)).toHaveLength(3);
    expect(zpl.headers.get("content-disposition")).toMatch(/^attachment;/);
  });

  it("refuses without a session, for another account, and for numbers of none of the account's orders", async () => {
    expect((await get(partner.accountId, `shippingNumbers=${numbers[0]}`)).status).toBe(401);
    session.current = sessionOf(stranger);
    expect((await get(partner.accountId, `shippingNumbers=${numbers[0]}`)).status).toBe(404);
    session.current = sessionOf(member);
    const unknown = await get(partner.accountId, `shippingNumbers=${numbers[0]},NOPE-1`);
    expect(unknown.status).toBe(404);
    expect((await readJson<Problem>(unknown)).errors?.[0]).toMatchObject({ field: "shippingNumbers" });
    const none = await get(partner.accountId, "shippingNumbers=");
    expect(none.status).toBe(400);
  });
});
