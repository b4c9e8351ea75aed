import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import type { CourierProfileView } from "./schemas";
import { toCourierProfileView } from "./to-view";

/** Makes a profile its courier's default for the account; the previous default stops being one. */
export async function setDefaultCourierProfile(
  db: Db,
  actor: Actor,
  id: string,
  audit: AuditContext = {},
): Promise<CourierProfileView> {
  if (!isUuid(id)) throw notFound("Courier profile");
  return db.transaction(async (tx) => {
    const [profile] = await tx.select().from(courierProfiles).where(eq(courierProfiles.id, id)).for("update");
    if (!profile || profile.archivedAt) throw notFound("Courier profile");
    await accountAccess(tx, actor, profile.accountId, { write: true }).catch((error: { code?: string }) => {
      throw error.code === "not_found" ? notFound("Courier profile") : error;
    });
    await tx
      .update(courierProfiles)
      .set({ isDefault: false })
      .where(
        and(
          eq(courierProfiles.accountId, profile.accountId),
          eq(courierProfiles.courier, profile.courier),
          eq(courierProfiles.isDefault, true),
        ),
      );
    const [row] = await tx
      .update(courierProfiles)
      .set({ isDefault: true })
      .where(eq(courierProfiles.id, id))
      .returning();
    await recordAudit(tx, {
      ...audit,
      accountId: profile.accountId,
      actorUserId: actor.userId,
      action: "courier_profile.default_set",
      targetId: id,
    });
    return toCourierProfileView(row!);
  });
}
