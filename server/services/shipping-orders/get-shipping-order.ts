import { and, eq, isNull, sql } from "drizzle-orm";
import { prepared, type Db, type Executor } from "@/db/client";
import { shippingOrders, type ShippingOrderRow } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { advanceTracking } from "./advance-tracking";
import { toShippingOrderViews, type ShippingOrderView } from "./shipping-order-view";

const liveOrder = (db: Executor) =>
  prepared(db, "live-order", (d) =>
    d
      .select()
      .from(shippingOrders)
      .where(
        and(
          eq(shippingOrders.id, sql.placeholder("id")),
          eq(shippingOrders.accountId, sql.placeholder("accountId")),
          isNull(shippingOrders.deletedAt),
        ),
      )
      .limit(1)
      .prepare("live_order"),
  );

/** A live order of the account; malformed ids, other accounts' orders and removed orders are all 404. */
export async function findLiveOrder(
  db: Executor,
  accountId: string,
  id: string,
  { lock = false } = {},
): Promise<ShippingOrderRow> {
  if (!isUuid(id)) throw notFound("Shipping order");
  const [row] = lock
    ? await db
        .select()
        .from(shippingOrders)
        .where(
          and(eq(shippingOrders.id, id), eq(shippingOrders.accountId, accountId), isNull(shippingOrders.deletedAt)),
        )
        .limit(1)
        .for("update")
    : await liveOrder(db).execute({ id, accountId });
  if (!row) throw notFound("Shipping order");
  return row;
}

export async function getShippingOrder(
  db: Db,
  accountId: string,
  id: string,
  baseUrl: string,
): Promise<ShippingOrderView> {
  const row = await findLiveOrder(db, accountId, id);
  if (row.trackingNextAt && row.trackingNextAt <= new Date()) {
    await advanceTracking(db, accountId, { baseUrl });
    return (await toShippingOrderViews(db, [await findLiveOrder(db, accountId, id)], baseUrl))[0]!;
  }
  return (await toShippingOrderViews(db, [row], baseUrl))[0]!;
}
