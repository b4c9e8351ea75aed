/**
 * Benchmark data. Partners (user, account, sandbox courier profile, API key) are made through the same
 * services the product uses (as test/partner.ts does); the million orders are written in SQL with
 * generate_series, never through HTTP. Import only after DATABASE_URL is set (db/client reads it once).
 */
import type postgres from "postgres";
import { getDb } from "@/db/client";
import { createUser } from "@/server/services/accounts/create-user";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";

export type BenchPartner = {
  accountId: string;
  userId: string;
  key: string;
  profileId: string;
  secondProfileId: string;
};

/** A partner with an owner, two sandbox profiles (the first is the default) and a key with every permission. */
export async function createBenchPartner(label: string): Promise<BenchPartner> {
  const db = await getDb();
  const email = `${label}-${Date.now()}@bench.example`;
  const { userId, accountId } = await createUser(db, {
    email,
    password: "bench-password-1234",
    accountName: `Bench ${label}`,
  });
  const actor = { userId, isStaff: false };
  const profile = await createCourierProfile(db, actor, {
    accountId,
    courier: "sandbox",
    name: "Sandbox",
    service: "STANDARD",
  });
  const second = await createCourierProfile(db, actor, {
    accountId,
    courier: "sandbox",
    name: "Sandbox express",
    service: "EXPRESS",
  });
  // The highest limit the contract allows, so a rate limiter (if present) never shapes the figures.
  const key = await createApiKey(db, actor, { accountId, name: `bench ${label}`, rateLimitPerMinute: 100_000 });
  return { accountId, userId, key: key.key, profileId: profile.id, secondProfileId: second.id };
}

/** Status by the order's rank within its account (`k`): 60 % delivered, the rest spread over the other six. */
const STATUS_MIX = `case
  when k % 20 < 12 then 'DELIVERED'
  when k % 20 < 14 then 'IN_TRANSIT'
  when k % 20 = 14 then 'OUT_FOR_DELIVERY'
  when k % 20 < 17 then 'HANDED_OVER'
  when k % 20 = 17 then 'CREATED'
  when k % 20 = 18 then 'RETURNED'
  else 'CANCELLED' end`;

/**
 * `orders` orders spread round-robin over `accounts` accounts (the first is `first`, the rest are made
 * here in SQL), created evenly over the past 365 days, interleaved in the heap as a multi-tenant table
 * would be. Each order: one parcel with a unique shipping number (`SBX9…`, outside the sandbox
 * sequence's range) and tracking events CREATED (+ its current status). Tracking is final
 * (tracking_next_at null) and nothing is deleted. Ends with VACUUM ANALYZE, as autovacuum would.
 */
export async function seedOrders(
  pool: postgres.Sql,
  first: BenchPartner,
  accounts: number,
  orders: number,
): Promise<{ seconds: number; steps: Record<string, number> }> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  // One session throughout: a temporary table and session settings.
  const sql = await pool.reserve();
  try {
    let t = performance.now();
    await load(sql, first, accounts, orders, (step) => {
      steps[step] = Math.round((performance.now() - t) / 100) / 10;
      t = performance.now();
    });
  } finally {
    sql.release();
  }
  return { seconds: (performance.now() - started) / 1000, steps };
}

async function load(
  sql: postgres.ReservedSql,
  first: BenchPartner,
  accounts: number,
  orders: number,
  done: (step: string) => void,
): Promise<void> {
  await sql`create temporary table bench_accounts (n int primary key, id uuid not null, profile_id uuid not null, second_profile_id uuid not null)`;
  await sql`insert into bench_accounts values (0, ${first.accountId}, ${first.profileId}, ${first.secondProfileId})`;
  await sql.unsafe(`
    with a as (
      insert into accounts (name) select 'Bench tenant ' || n from generate_series(1, ${accounts - 1}) n returning id, name
    ), numbered as (
      select id, substr(name, 14)::int as n from a
    ), p1 as (
      insert into courier_profiles (account_id, courier, name, service, is_default, settings)
      select id, 'sandbox', 'Sandbox', 'STANDARD', true, '{}'::jsonb from numbered returning id, account_id
    ), p2 as (
      insert into courier_profiles (account_id, courier, name, service, is_default, settings)
      select id, 'sandbox', 'Sandbox express', 'EXPRESS', false, '{}'::jsonb from numbered returning id, account_id
    )
    insert into bench_accounts select numbered.n, numbered.id, p1.id, p2.id from numbered join p1 on p1.account_id = numbered.id join p2 on p2.account_id = numbered.id`);
  // Bulk-load the way a restore does: secondary indexes dropped and rebuilt afterwards (sorted builds, not
  // a million random inserts), FK triggers off for the load (the rows are consistent by construction).
  const indexes = await sql<{ name: string; def: string }[]>`
    select indexname as name, indexdef as def from pg_indexes
    where schemaname = 'public' and tablename in ('shipping_orders', 'parcels', 'tracking_events') and indexname not like '%_pkey'`;
  for (const i of indexes) await sql.unsafe(`drop index "${i.name}"`);
  await sql`set session_replication_role = replica`;
  await sql.unsafe(`
    with o as (
      insert into shipping_orders (
        account_id, courier, courier_profile_id, reference_number, external_reference, reference_source, source_identifier,
        service, status, recipient_name, recipient_street, recipient_city, recipient_zip, recipient_country,
        recipient_email, recipient_phone, tracking_url, tracking_updated_at, tracking_next_at, created_at, deleted_at
      )
      select a.id, 'sandbox', case when k % 2 = 0 then a.profile_id else a.second_profile_id end,
        'REF-' || lpad(g::text, 9, '0'), 'EXT-' || g,
        -- One order in ten from an e-shop's source pair (three shops), the rest sent without a pair.
        case when k % 10 = 0 then 'shoptet' else 'api' end,
        case when k % 10 = 0 then 'eshop-' || (k % 3) else 'default' end,
        case when k % 2 = 0 then 'STANDARD' else 'EXPRESS' end, (${STATUS_MIX})::shipping_status,
        'Recipient ' || g, 'Dlouha ' || (g % 500 + 1), 'Praha', '110 00', 'CZ',
        'r' || g || '@example.com', '+420777' || lpad((g % 1000000)::text, 6, '0'),
        'https://sandbox-courier.example/track/SBX9' || lpad(g::text, 9, '0'), t.created, null, t.created, null
      from generate_series(1, ${orders}) g
      join bench_accounts a on a.n = g % ${accounts}
      cross join lateral (select g / ${accounts} as k) rank
      cross join lateral (select date_trunc('milliseconds', now() - interval '365 days' + (g::float8 / ${orders}) * interval '365 days') as created) t
      returning id, reference_number, status, created_at
    ), p as (
      insert into parcels (order_id, position, weight, shipping_number)
      select id, 0, 1.5, 'SBX9' || substr(reference_number, 5) from o
    )
    insert into tracking_events (order_id, time, status, description, location)
    select id, created_at, 'CREATED', 'Shipment data received from the sender', null from o
    union all
    select id, created_at + interval '1 hour', status, 'Status ' || status, 'Sandbox hub Brno' from o where status <> 'CREATED'`);
  done("insert");
  await sql`set session_replication_role = origin`;
  await sql`set maintenance_work_mem = '256MB'`;
  for (const i of indexes) await sql.unsafe(i.def);
  await sql`reset maintenance_work_mem`;
  done("indexes");
  await sql`vacuum (analyze) shipping_orders`;
  await sql`vacuum (analyze) parcels`;
  await sql`vacuum (analyze) tracking_events`;
  await sql`drop table bench_accounts`;
  done("vacuum");
}

export type ListFixtures = {
  ids: string[];
  referenceNumbers: string[];
  shippingNumbers: string[];
  createdAt: Date[];
  orders: number;
};

/** Values of the account's orders to filter by: a random sample of ids, references and shipping numbers. */
export async function listFixtures(sql: postgres.Sql, accountId: string, sample = 2000): Promise<ListFixtures> {
  const rows = await sql<{ id: string; reference_number: string; shipping_number: string; created_at: Date }[]>`
    select o.id, o.reference_number, p.shipping_number, o.created_at
    from shipping_orders o join parcels p on p.order_id = o.id
    where o.account_id = ${accountId} and o.deleted_at is null
    order by random() limit ${sample}`;
  const [count] = await sql<
    { n: number }[]
  >`select count(*)::int as n from shipping_orders where account_id = ${accountId} and deleted_at is null`;
  return {
    ids: rows.map((r) => r.id),
    referenceNumbers: rows.map((r) => r.reference_number),
    shippingNumbers: rows.map((r) => r.shipping_number),
    createdAt: rows.map((r) => r.created_at),
    orders: count!.n,
  };
}

export async function tableSizes(sql: postgres.Sql): Promise<{ table: string; rows: number; size: string }[]> {
  return sql<{ table: string; rows: number; size: string }[]>`
    select relname as table, n_live_tup::int as rows, pg_size_pretty(pg_total_relation_size(relid)) as size
    from pg_stat_user_tables where relname in ('shipping_orders', 'parcels', 'tracking_events') order by relname`;
}
