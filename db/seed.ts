import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { courierProfiles, users } from "./schema";
import { createUser } from "@/server/services/accounts/create-user";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";

export const DEMO = {
  partner: { email: "partner@demo.test", password: "demo-partner-2026", account: "Demo e-shop" },
  staff: { email: "staff@demo.test", password: "demo-staff-2026", account: "Platform staff" },
  /** The credentials the local fake couriers of `npm run dev` accept (scripts/dev.ts); never real ones. */
  packeta: { apiPassword: "demo0123456789abcdef0123456789ab", sender: "demo-e-shop" },
  ppl: { clientId: "demo-client", clientSecret: "demo-client-secret" },
} as const;

/**
 * The demo: a partner account with an owner, a staff user, and a sandbox courier profile whose tracking
 * moves every two minutes. Idempotent: an existing demo is left as it is.
 */
export async function seedDemo(
  db: Db,
  options: {
    /** Also give the partner Packeta and PPL profiles with the fake couriers' credentials (`npm run dev` only). */
    fakeCouriers?: boolean;
  } = {},
): Promise<{ created: boolean }> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, DEMO.partner.email));
  if (existing) return { created: false };
  const partner = await createUser(db, {
    email: DEMO.partner.email,
    password: DEMO.partner.password,
    accountName: DEMO.partner.account,
    name: "Demo Partner",
  });
  await createUser(db, {
    email: DEMO.staff.email,
    password: DEMO.staff.password,
    accountName: DEMO.staff.account,
    staff: true,
    name: "Demo Staff",
  });
  // The account's default sandbox profile (every account starts with one), with tracking that moves visibly.
  await db
    .update(courierProfiles)
    .set({ name: "Sandbox (demo)", settings: { trackingStepMinutes: 2 } })
    .where(
      and(
        eq(courierProfiles.accountId, partner.accountId),
        eq(courierProfiles.courier, "sandbox"),
        eq(courierProfiles.isDefault, true),
      ),
    );
  if (options.fakeCouriers) {
    const actor = { userId: partner.userId, isStaff: false };
    await createCourierProfile(db, actor, {
      accountId: partner.accountId,
      courier: "packeta",
      name: "Packeta (local fake)",
      isDefault: true,
      settings: { ...DEMO.packeta },
    });
    await createCourierProfile(db, actor, {
      accountId: partner.accountId,
      courier: "ppl",
      name: "PPL (local fake)",
      isDefault: true,
      settings: { ...DEMO.ppl },
    });
  }
  return { created: true };
}

export function signInBanner(url = "http://localhost:3000"): string {
  return [
    "",
    "  Shipping-order platform demo",
    `  Dashboard:  ${url}/sign-in`,
    `  Partner:    ${DEMO.partner.email} / ${DEMO.partner.password}`,
    `  Staff:      ${DEMO.staff.email} / ${DEMO.staff.password}`,
    `  API docs:   ${url}/docs`,
    "",
  ].join("\n");
}
