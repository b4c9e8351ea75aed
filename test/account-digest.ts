import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";

export type AccountDigest = {
  orders: number;
  parcels: number;
  apiKeys: number;
  sources: number;
  courierProfiles: number;
  webhookEndpoints: number;
  ordersDigest: string;
  parcelsDigest: string;
  apiKeysDigest: string;
  sourcesDigest: string;
  courierProfilesDigest: string;
  webhookEndpointsDigest: string;
  webhookDeliveriesDigest: string;
};

/**
 * Counts and a digest of every row an account owns in the tables a request may write (validation results,
 * rate-limit buckets and idempotency rows excepted: those are written on failures by design). `last_used_at`
 * of a key is left out: using a key writes it.
 */
export async function accountDigest(accountId: string): Promise<AccountDigest> {
  const db = await getDb();
  const digest = (from: ReturnType<typeof sql>) =>
    sql`(select md5(coalesce(string_agg(r.j, '|' order by r.j), '')) from (${from}) r)`;
  const [row] = rowsOf<AccountDigest>(
    await db.execute(sql`
      select
        (select count(*)::int from shipping_orders where account_id = ${accountId}) as "orders",
        (select count(*)::int from parcels p join shipping_orders o on o.id = p.order_id where o.account_id = ${accountId}) as "parcels",
        (select count(*)::int from api_keys where account_id = ${accountId}) as "apiKeys",
        (select count(*)::int from sources where account_id = ${accountId}) as "sources",
        (select count(*)::int from courier_profiles where account_id = ${accountId}) as "courierProfiles",
        (select count(*)::int from webhook_endpoints where account_id = ${accountId}) as "webhookEndpoints",
        ${digest(sql`select to_jsonb(t)::text as j from shipping_orders t where t.account_id = ${accountId}`)} as "ordersDigest",
        ${digest(sql`select to_jsonb(p)::text as j from parcels p join shipping_orders o on o.id = p.order_id where o.account_id = ${accountId}`)} as "parcelsDigest",
        ${digest(sql`select (to_jsonb(t) - 'last_used_at')::text as j from api_keys t where t.account_id = ${accountId}`)} as "apiKeysDigest",
        ${digest(sql`select to_jsonb(t)::text as j from sources t where t.account_id = ${accountId}`)} as "sourcesDigest",
        ${digest(sql`select to_jsonb(t)::text as j from courier_profiles t where t.account_id = ${accountId}`)} as "courierProfilesDigest",
        ${digest(sql`select to_jsonb(t)::text as j from webhook_endpoints t where t.account_id = ${accountId}`)} as "webhookEndpointsDigest",
        ${digest(sql`select to_jsonb(t)::text as j from webhook_deliveries t where t.account_id = ${accountId}`)} as "webhookDeliveriesDigest"
    `),
  );
  return row!;
}
