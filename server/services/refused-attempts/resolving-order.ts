import { sql } from "drizzle-orm";
import { refusedAttempts, shippingOrders } from "@/db/schema";

/**
 * The order that resolved a refused attempt: the live order of its account, ReferenceNumber and source pair created
 * at or after the refusal (the attempt fixed and sent again, from the dashboard or the API). Sending the attempt
 * again would now replace that order, so it is shown resolved and no longer counted among the open refusals; when
 * that order is deleted, nothing is live for the reference and the refusal is open again. Decided when read: the
 * partial unique index of live references (shipping_orders_live_reference_key) answers it in one probe per attempt,
 * and creates write nothing more. At most one row: one live order per reference and source pair.
 */
export const resolvingOrderId = sql<string | null>`(
  select ${shippingOrders.id} from ${shippingOrders}
  where ${shippingOrders.accountId} = ${refusedAttempts.accountId}
    and ${shippingOrders.referenceNumber} = ${refusedAttempts.referenceNumber}
    and ${shippingOrders.referenceSource} = ${refusedAttempts.referenceSource}
    and ${shippingOrders.sourceIdentifier} = ${refusedAttempts.sourceIdentifier}
    and ${shippingOrders.deletedAt} is null
    and ${shippingOrders.createdAt} >= ${refusedAttempts.createdAt})`;

/** A refused attempt no later create resolved (see `resolvingOrderId`): what the overviews count. */
export const isOpenRefusal = sql`${resolvingOrderId} is null`;
