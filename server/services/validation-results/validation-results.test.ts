import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import { createTestUser } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";
import { getValidationResult } from "./get-validation-result";
import { listValidationResults } from "./list-validation-results";

const actorOf = (u: { userId: string }, isStaff = false) => ({ userId: u.userId, isStaff });

describe("validation results for review", () => {
  it("lists an account's results with filters; staff see every account; others get 404", async () => {
    const a = await createPartner();
    const b = await createPartner();
    for (const [p, body] of [
      [a, [order({ ReferenceNumber: "VR-OK" }), order({ ReferenceNumber: "VR-ERR", Parcels: [] })]],
      [b, [order({ ReferenceNumber: "VR-B" })]],
    ] as const) {
      await as(p)(validate.POST, "/api/v2/couriers/sandbox/shipping-orders/validate", {
        body,
        params: { courier_id: "sandbox" },
      });
    }
    const db = await getDb();
    const mine = await listValidationResults(db, actorOf(a), { accountId: a.accountId });
    expect(mine.items.map((r) => r.referenceNumber).sort()).toEqual(["VR-ERR", "VR-OK"]);
    const errorsOnly = await listValidationResults(db, actorOf(a), { accountId: a.accountId, status: ["ERROR"] });
    expect(errorsOnly.items).toEqual([
      expect.objectContaining({ referenceNumber: "VR-ERR", errors: 1, operation: "validate", courier: "sandbox" }),
    ]);
    expect(
      (await listValidationResults(db, actorOf(a), { accountId: a.accountId, referenceNumber: "ok" })).items.map(
        (r) => r.referenceNumber,
      ),
    ).toEqual(["VR-OK"]);
    await expect(listValidationResults(db, actorOf(a), { accountId: b.accountId })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(listValidationResults(db, actorOf(a), {})).rejects.toMatchObject({ code: "bad_request" });

    const staff = await createTestUser({ staff: true });
    const all = await listValidationResults(db, actorOf(staff, true), { pageSize: 50 });
    expect(all.items.map((r) => r.referenceNumber)).toEqual(expect.arrayContaining(["VR-OK", "VR-ERR", "VR-B"]));
    const onlyB = await listValidationResults(db, actorOf(staff, true), { accountId: b.accountId });
    expect(onlyB.items.map((r) => r.accountName)).toEqual([expect.stringContaining("Account")]);

    const detail = await getValidationResult(db, actorOf(a), errorsOnly.items[0]!.id);
    expect(detail.messages[0]).toMatchObject({ code: "OUT_OF_RANGE", field: "Parcels" });
    expect(detail.requestBody).toMatchObject({ ReferenceNumber: "VR-ERR" });
    await expect(getValidationResult(db, actorOf(b), detail.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await getValidationResult(db, actorOf(staff, true), detail.id)).id).toBe(detail.id);
  });
});
