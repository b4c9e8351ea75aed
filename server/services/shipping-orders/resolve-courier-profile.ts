import { and, eq, isNull, sql } from "drizzle-orm";
import { prepared, type Executor } from "@/db/client";
import { courierProfiles, type CourierProfileRow } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import type { CourierAdapter } from "@/server/couriers/adapter";
import { AppError, notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";

/** Built once per database handle (every create and validate resolves its profile). */
const statements = (db: Executor) =>
  prepared(db, "resolve-courier-profile", (d) => ({
    byId: d
      .select()
      .from(courierProfiles)
      .where(
        and(
          eq(courierProfiles.id, sql.placeholder("id")),
          eq(courierProfiles.accountId, sql.placeholder("accountId")),
          eq(courierProfiles.courier, sql.placeholder("courierId")),
          isNull(courierProfiles.archivedAt),
        ),
      )
      .limit(1)
      .prepare("courier_profile_by_id"),
    byDefault: d
      .select()
      .from(courierProfiles)
      .where(
        and(
          eq(courierProfiles.accountId, sql.placeholder("accountId")),
          eq(courierProfiles.courier, sql.placeholder("courierId")),
          eq(courierProfiles.isDefault, true),
        ),
      )
      .limit(1)
      .prepare("courier_profile_default"),
  }));

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
    const [profile] = await statements(db).byId.execute({ id: profileId, accountId, courierId });
    if (!profile) throw notFound("Courier profile");
    return { courier, profile };
  }
  const [profile] = await statements(db).byDefault.execute({ accountId, courierId });
  if (!profile) throw noDefaultProfile(courierId);
  return { courier, profile };
}

export const noDefaultProfile = (courierId: string) =>
  new AppError(
    "not_found",
    `The account has no courier profile for ${courierId}; create one (POST /api/v2/private/courier-profiles) or pass ?profile=.`,
    { errors: [{ field: "profile", message: "no default courier profile" }] },
  );
