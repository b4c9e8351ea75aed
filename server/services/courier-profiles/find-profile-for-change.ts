import { eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { courierProfiles, type CourierProfileRow } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";

/**
 * The profile to change, locked for the transaction. Unknown, archived or another account's → 404 (so ids
 * cannot be probed); a member of the account → 403, as only owners and staff change integration settings.
 */
export async function findProfileForChange(tx: Tx, actor: Actor, id: string): Promise<CourierProfileRow> {
  if (!isUuid(id)) throw notFound("Courier profile");
  const [profile] = await tx.select().from(courierProfiles).where(eq(courierProfiles.id, id)).for("update");
  if (!profile || profile.archivedAt) throw notFound("Courier profile");
  await accountAccess(tx, actor, profile.accountId, { write: true }).catch((error: { code?: string }) => {
    throw error.code === "not_found" ? notFound("Courier profile") : error;
  });
  return profile;
}
