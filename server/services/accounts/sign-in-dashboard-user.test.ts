import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { AppError } from "@/server/errors";
import { SIGN_IN_PER_EMAIL_PER_MINUTE } from "../rate-limits/throttle-sign-in";
import { createTestUser } from "@/test/helpers";
import { signInDashboardUser } from "./sign-in-dashboard-user";

describe("signInDashboardUser", () => {
  it("returns the user and records the sign-in in the account's audit trail", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    const user = await signInDashboardUser(
      db,
      { email: owner.email, password: owner.password },
      { ip: "198.51.100.4" },
    );
    expect(user).toMatchObject({ id: owner.userId, isStaff: false });
    const events = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, owner.accountId), eq(auditEvents.action, "user.signed_in")));
    expect(events).toEqual([
      expect.objectContaining({ actorUserId: owner.userId, ip: "198.51.100.4", details: { channel: "dashboard" } }),
    ]);
  });

  it("answers null for a wrong password and records nothing", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    expect(await signInDashboardUser(db, { email: owner.email, password: "wrong password" })).toBeNull();
    const events = await db.select().from(auditEvents).where(eq(auditEvents.accountId, owner.accountId));
    expect(events.filter((e) => e.action === "user.signed_in")).toEqual([]);
  });

  it("slows password guessing down per email", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    for (let i = 0; i < SIGN_IN_PER_EMAIL_PER_MINUTE; i++) {
      await signInDashboardUser(db, { email: owner.email, password: `guess ${i}` });
    }
    const refused = await signInDashboardUser(db, { email: owner.email, password: owner.password }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("rate_limited");
  });
});
