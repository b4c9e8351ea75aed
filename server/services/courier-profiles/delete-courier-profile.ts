import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { courierProfiles, shippingOrders, type CourierProfileRow } from "@/db/schema";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { findProfileForChange } from "./find-profile-for-change";

export type DeletedCourierProfile = { id: string; archived: boolean };

/**
 * Deletes a profile no order used. A profile orders used is archived instead: it leaves every list and takes
 * no new orders, while its orders (live, deleted or replaced) still find the settings their tracking and
 * cancellation need. A default profile hands the default to the courier's oldest remaining profile.
 */
export async function deleteCourierProfile(
  db: Db,
  actor: Actor,
  id: string,
  audit: AuditContext = {},
): Promise<DeletedCourierProfile> {
  return db.transaction(async (tx) => {
    const profile = await findProfileForChange(tx, actor, id);
    const [used] = await tx
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(eq(shippingOrders.courierProfileId, id))
      .limit(1);
    const archived = used !== undefined;
    if (archived) {
      await tx
        .update(courierProfiles)
        .set({ archivedAt: new Date(), isDefault: false })
        .where(eq(courierProfiles.id, id));
    } else {
      await tx.delete(courierProfiles).where(eq(courierProfiles.id, id));
    }
    const newDefault = profile.isDefault ? await handOverDefault(tx, profile) : null;
    await recordAudit(tx, {
      ...audit,
      accountId: profile.accountId,
      actorUserId: actor.userId,
      action: archived ? "courier_profile.archived" : "courier_profile.deleted",
      targetId: id,
      details: { courier: profile.courier, name: profile.name, ...(newDefault ? { newDefault } : {}) },
    });
    return { id, archived };
  });
}

async function handOverDefault(tx: Tx, profile: CourierProfileRow): Promise<string | null> {
  const [next] = await tx
    .select({ id: courierProfiles.id })
    .from(courierProfiles)
    .where(
      and(
        eq(courierProfiles.accountId, profile.accountId),
        eq(courierProfiles.courier, profile.courier),
        isNull(courierProfiles.archivedAt),
        ne(courierProfiles.id, profile.id),
      ),
    )
    .orderBy(asc(courierProfiles.createdAt), asc(courierProfiles.id))
    .limit(1);
  if (!next) return null;
  await tx.update(courierProfiles).set({ isDefault: true }).where(eq(courierProfiles.id, next.id));
  return next.id;
}
