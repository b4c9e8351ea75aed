import type { Db } from "@/db/client";
import { AppError } from "@/server/errors";
import { accountAccess, type Actor } from "../authorization";
import { deleteShippingOrder } from "./delete-shipping-order";

/**
 * Deleting from the dashboard: the REST door authorises with the key's `shipping-orders:write`, a dashboard
 * user by role. Members only read, as everywhere in the dashboard; another account's order is a 404.
 */
export async function deleteShippingOrderAsUser(
  db: Db,
  actor: Actor,
  accountId: string,
  id: string,
  baseUrl: string,
): Promise<void> {
  const access = await accountAccess(db, actor, accountId);
  if (access.role === "member")
    throw new AppError("forbidden", "Only an owner of the account can delete its shipping orders.");
  await deleteShippingOrder(db, accountId, id, baseUrl);
}
