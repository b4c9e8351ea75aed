import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { CourierError } from "@/server/couriers/adapter";
import { findCourier } from "@/server/couriers/registry";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { REQUEST_COSTS } from "../rate-limits/request-costs";
import { throttleDashboardAndOwn } from "../rate-limits/throttle-dashboard";
import { accountAccess, type Actor } from "../authorization";
import { callCourier, courierSettings } from "../couriers/call-courier";

export const checkResultSchema = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({
    ok: z.literal(false),
    code: z
      .enum(["COURIER_AUTH_FAILED", "COURIER_UNAVAILABLE", "COURIER_TIMEOUT", "COURIER_REJECTED"])
      .describe("COURIER_AUTH_FAILED: the courier refused the credentials; the others: it could not be asked."),
    message: z.string().describe("The courier's own words where it gave any."),
  }),
]);
export type CheckResult = z.infer<typeof checkResultSchema>;

/**
 * Checks per profile a minute, across app instances: a check asks the courier, and a refused one costs a token request
 * of PPL's ~12 a minute per client (a working PPL profile's check reuses the cached token).
 */
export const CHECKS_PER_PROFILE_PER_MINUTE = 6;

/**
 * Checks of one account's profiles of one courier a minute, whoever asks: profiles may hold the same credentials, and
 * a courier may lock a partner's account after a burst of refused logins, so more profiles buy no more checks.
 */
export const CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE = 12;

export const checkRefusals = {
  profile: "Too many credential checks of this courier profile",
  accountCourier: (courier: string) => `Too many credential checks of the account's ${courier} profiles`,
};

/**
 * `POST /private/courier-profiles/{id}/check`: asks the profile's courier whether its credentials work, with the
 * cheapest authenticated call the courier has. Any member of the account may ask (it changes nothing; the contract
 * names no role); unknown, archived or another account's profile → 404. A check counts `REQUEST_COSTS.courierCheck`
 * requests against the caller's and the profile's account's limits (as the dashboard's expensive calls do, on either
 * door), and one of `CHECKS_PER_PROFILE_PER_MINUTE` and of `CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE`; past any → 429,
 * before the courier is asked. The courier's refusal is an answer (200, `ok: false`), not an error.
 */
export async function checkCourierProfile(db: Executor, actor: Actor, id: string): Promise<CheckResult> {
  if (!isUuid(id)) throw notFound("Courier profile");
  const [profile] = await db.select().from(courierProfiles).where(eq(courierProfiles.id, id));
  if (!profile || profile.archivedAt) throw notFound("Courier profile");
  await accountAccess(db, actor, profile.accountId).catch((error: { code?: string }) => {
    throw error.code === "not_found" ? notFound("Courier profile") : error;
  });
  const courier = findCourier(profile.courier);
  if (!courier) throw notFound("Courier profile");
  const settings = courierSettings(courier, profile);
  await throttleDashboardAndOwn(
    db,
    { userId: actor.userId, accountId: profile.accountId },
    REQUEST_COSTS.courierCheck,
    [
      {
        subject: `courier-check:${profile.id}`,
        limitPerMinute: CHECKS_PER_PROFILE_PER_MINUTE,
        refusal: checkRefusals.profile,
      },
      {
        subject: `courier-check:${profile.accountId}:${profile.courier}`,
        limitPerMinute: CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE,
        refusal: checkRefusals.accountCourier(profile.courier),
      },
    ],
  );
  try {
    // A refusal is thrown inside the call, so the courier-call log line and metric say what the courier answered.
    await callCourier(db, courier, "check", settings, async (ctx) => {
      const result = await courier.checkCredentials(settings, ctx);
      if (!result.ok) throw new CourierError(result.code, result.message);
    });
    return { ok: true };
  } catch (error) {
    // callCourier turns every courier failure into a CourierError; anything else (the database) is not an answer.
    if (!(error instanceof CourierError)) throw error;
    const code = error.code === "COURIER_CANNOT_CANCEL" ? "COURIER_REJECTED" : error.code;
    return { ok: false, code, message: error.message };
  }
}
