import { and, count, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, refusedAttempts, shippingOrders, validationResults } from "@/db/schema";
import type { ShippingStatus } from "@/lib/shipping-status";
import { maskApiKey } from "@/server/auth/api-key-secret";
import { formatMillis } from "@/server/time";
import { accountAccess, type Actor } from "../authorization";
import { isOpenRefusal } from "../refused-attempts/resolving-order";
import { advanceTracking } from "../shipping-orders/advance-tracking";

export type AccountOverview = {
  ordersByStatus: { status: ShippingStatus; count: number }[];
  /** Orders are attributed to the source pair they were created under. */
  ordersBySourcePair: { referenceSource: string; sourceIdentifier: string; count: number }[];
  validationErrorsByDay: { day: string; count: number }[];
  keyUsage: { id: string; name: string; key: string; lastUsed: string | null; ordersLast7Days: number }[];
  /** Whether the account ever created an order (deleted and replaced ones count): the last setup step. */
  hasSentOrders: boolean;
  /** Create attempts the courier refused or did not answer in the last 7 days that no later create resolved. */
  refusedLast7Days: number;
};

/** The overview page's figures for one account: live orders by status and by source pair, recent validation errors, key usage. */
export async function getAccountOverview(
  db: Db,
  actor: Actor,
  accountId: string,
  now = new Date(),
): Promise<AccountOverview> {
  await accountAccess(db, actor, accountId);
  // Statuses move on as the courier reports; without this the figures would lag behind the orders list, which advances them.
  await advanceTracking(db, accountId, { now });
  const live = and(eq(shippingOrders.accountId, accountId), isNull(shippingOrders.deletedAt));
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  const day = sql<string>`to_char(date_trunc('day', ${validationResults.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const [byStatus, byPair, errors, keys, perKey, [anyOrder], [refused]] = await Promise.all([
    db
      .select({ status: shippingOrders.status, count: count() })
      .from(shippingOrders)
      .where(live)
      .groupBy(shippingOrders.status),
    db
      .select({
        referenceSource: shippingOrders.referenceSource,
        sourceIdentifier: shippingOrders.sourceIdentifier,
        count: count(),
      })
      .from(shippingOrders)
      .where(live)
      .groupBy(shippingOrders.referenceSource, shippingOrders.sourceIdentifier)
      .orderBy(desc(count())),
    db
      .select({ day, count: count() })
      .from(validationResults)
      .where(
        and(
          eq(validationResults.accountId, accountId),
          eq(validationResults.status, "ERROR"),
          gte(validationResults.createdAt, weekAgo),
        ),
      )
      .groupBy(day)
      .orderBy(day),
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
      .orderBy(sql`${apiKeys.lastUsedAt} desc nulls last`, desc(apiKeys.createdAt)),
    db
      .select({ apiKeyId: shippingOrders.apiKeyId, count: count() })
      .from(shippingOrders)
      .where(and(eq(shippingOrders.accountId, accountId), gte(shippingOrders.createdAt, weekAgo)))
      .groupBy(shippingOrders.apiKeyId),
    db.select({ id: shippingOrders.id }).from(shippingOrders).where(eq(shippingOrders.accountId, accountId)).limit(1),
    db
      .select({ n: count() })
      .from(refusedAttempts)
      .where(and(eq(refusedAttempts.accountId, accountId), gte(refusedAttempts.createdAt, weekAgo), isOpenRefusal)),
  ]);
  const ordersPerKey = new Map(perKey.map((k) => [k.apiKeyId, k.count]));
  return {
    ordersByStatus: byStatus,
    ordersBySourcePair: byPair,
    validationErrorsByDay: errors,
    keyUsage: keys.map((k) => ({
      id: k.id,
      name: k.name,
      key: maskApiKey(k.suffix, k.kind),
      lastUsed: k.lastUsedAt ? formatMillis(k.lastUsedAt) : null,
      ordersLast7Days: ordersPerKey.get(k.id) ?? 0,
    })),
    hasSentOrders: anyOrder !== undefined,
    refusedLast7Days: refused?.n ?? 0,
  };
}
