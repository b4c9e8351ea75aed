import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { courierProfiles, type CourierProfileRow } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import type { CourierAdapter } from "@/server/couriers/types";
import { AppError, notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";

export type CourierAndProfile = { courier: CourierAdapter; profile: CourierProfileRow };

/**
 * The courier of the path and the profile of `?profile=` (or the account's default for that courier).
 * Unknown courier, a profile of another account or courier, an archived profile, or no profile at all → 404.
 */
export async function resolveCourierProfile(
  db: Executor,
  accountId: string,
  courierId: string,
  profileId: string | null | undefined,
): Promise<CourierAndProfile> {
  const courier = findCourier(courierId);
  if (!courier) throw notFound(`Courier ${courierId}`);
  if (profileId !== undefined && profileId !== null && profileId !== "") {
    if (!isUuid(profileId)) throw notFound("Courier profile");
    const [profile] = await db
      .select()
      .from(courierProfiles)
      .where(
        and(
          eq(courierProfiles.id, profileId),
          eq(courierProfiles.accountId, accountId),
          eq(courierProfiles.courier, courierId),
          isNull(courierProfiles.archivedAt),
        ),
      )
      .limit(1);
    if (!profile) throw notFound("Courier profile");
    return { courier, profile };
  }
  const [profile] = await db
    .select()
    .from(courierProfiles)
    .where(
      and(
        eq(courierProfiles.accountId, accountId),
        eq(courierProfiles.courier, courierId),
        eq(courierProfiles.isDefault, true),
      ),
    )
    .limit(1);
  if (!profile) throw noDefaultProfile(courierId);
  return { courier, profile };
}

export const noDefaultProfile = (courierId: string) =>
  new AppError(
    "not_found",
    `The account has no courier profile for ${courierId}; create one (POST /api/v2/private/courier-profiles) or pass ?profile=.`,
    { errors: [{ field: "profile", message: "no default courier profile" }] },
  );
