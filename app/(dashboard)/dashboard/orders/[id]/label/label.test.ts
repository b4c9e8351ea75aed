import type { Session } from "next-auth";
import { PDFDocument } from "pdf-lib";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { sessionOf } from "@/test/trpc";
import { GET } from "./route";

// The route reads the next-auth session from the request's cookies; here the session is simply given.
const session = vi.hoisted(() => ({ current: null as Session | null }));
vi.mock("@/server/auth/next-auth", () => ({ getSession: async () => session.current }));

const signedInAs = (user: TestUser | null, staff = false) => {
  session.current = user ? sessionOf(user, { staff }) : null;
};

describe("dashboard label route", () => {
  let partner: Partner;
  let member: TestUser;
  let stranger: TestUser;
  let staff: TestUser;
  let orderId: string;
  const get = (accountId: string, id = orderId, query = "") =>
    call(GET, `/dashboard/orders/${id}/label?account=${accountId}${query}`, { params: { id } });

  beforeAll(async () => {
    partner = await createPartner();
    member = await createTestUser({ accountId: partner.accountId, role: "member" });
    stranger = await createTestUser();
    staff = await createTestUser({ staff: true });
    const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: order({ Parcels: [{ Weight: 1 }, { Weight: 2 }] }),
      params: { courier_id: "sandbox" },
    });
    orderId = (await readJson<{ items: { id: string }[] }>(response)).items[0]!.id;
  });
  beforeEach(() => signedInAs(null));

  it("streams the label PDF to members and staff of the account", async () => {
    for (const [user, isStaff] of [
      [member, false],
      [staff, true],
    ] as const) {
      signedInAs(user, isStaff);
      const response = await get(partner.accountId);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect((await PDFDocument.load(new Uint8Array(await response.arrayBuffer()))).getPageCount()).toBe(2);
    }
    signedInAs(member);
    expect((await get(partner.accountId, orderId, "&download=1")).headers.get("content-disposition")).toMatch(
      /^attachment;/,
    );
  });

  it("answers 404 for another account's order, an account the user is not in, or no account", async () => {
    signedInAs(stranger);
    expect((await get(partner.accountId)).status).toBe(404);
    expect((await get(stranger.accountId)).status).toBe(404);
    signedInAs(member);
    expect((await get("")).status).toBe(404);
    expect((await get(partner.accountId, "not-a-uuid")).status).toBe(404);
  });

  it("answers 401 without a session, or when the session's user is gone", async () => {
    expect((await get(partner.accountId)).status).toBe(401);
    signedInAs({ ...member, userId: "00000000-0000-4000-8000-000000000000" });
    expect((await get(partner.accountId)).status).toBe(401);
  });
});
