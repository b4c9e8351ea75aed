import type { Db } from "@/db/client";
import { AppError } from "@/server/errors";
import { accountAccess, type Actor } from "../authorization";
import { createShippingOrders, type CreateResponse } from "./create-shipping-orders";
import { orderBatch } from "./order-batch";

export type CreateAsUserCommand = { courierId: string; profileId?: string | null; body: unknown; baseUrl: string };

/**
 * Creating from the dashboard (by hand, or a refused order fixed and sent again): the same create as the
 * REST door, so validation, replacement and the courier call are the same, recorded with the user instead of
 * a key. Members only read, as everywhere in the dashboard. A person typing an order has no key whose
 * duplicate-prevention setting could apply, so it always applies: a ReferenceNumber live under another
 * source pair is refused (409) rather than becoming a second shipment by a slip of the source select.
 */
export async function createShippingOrdersAsUser(
  db: Db,
  actor: Actor,
  accountId: string,
  command: CreateAsUserCommand,
): Promise<CreateResponse> {
  const access = await accountAccess(db, actor, accountId);
  if (access.role === "member")
    throw new AppError("forbidden", "Only an owner of the account can create shipping orders.");
  return createShippingOrders(
    db,
    { accountId, userId: actor.userId },
    {
      courierId: command.courierId,
      profileId: command.profileId,
      batch: orderBatch("application/json", command.body),
      preventDuplicateOrders: true,
      baseUrl: command.baseUrl,
    },
  );
}
