/**
 * `npx tsx bench/two-instances.ts [--duration=S]` (needs a build: `npx next build`)
 *
 * Two app processes (`next start`) on one fresh database, as a horizontally scaled deployment runs, and what
 * must hold across them, checked and counted rather than assumed:
 *  1. rate limit: a burst on one key through both processes lets through at most the bucket plus its refill;
 *  2. Idempotency-Key: one key sent concurrently to both processes creates one order, and every 200 carries it;
 *  3. replacement: concurrent creates of one reference through both leave exactly one live order;
 *  4. load: creates at 8 connections per process all succeed, with no shipping number given twice;
 *  5. events: while that load runs, the `/events` feed read through both processes in turn returns every order
 *     event exactly once (none skipped by a transaction that committed late), each order has one `created`
 *     event, and two worker processes deliver every event of the load to a webhook receiver.
 * Exits 1 when any of them does not hold.
 */
import path from "node:path";
import postgres from "postgres";
import { createDatabase, dropDatabase } from "./lib/database";
import { startEventReceiver, startWorkerProcess } from "./lib/events";
import { load } from "./lib/load";
import { startApp, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const DURATION = Number(option("duration") ?? 10);
const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const TMP = path.resolve("bench/.tmp");
const CREATE = "/api/v2/couriers/sandbox/shipping-orders";
const tag = Date.now().toString(36);

const order = (reference: string) => ({
  ReferenceNumber: reference,
  Recipient: { Name: "Jana Nováková", Street: "Dlouhá 12", City: "Praha", Zip: "110 00", Country: "CZ" },
  Parcels: [{ Weight: 1.5 }],
});

async function main(): Promise<number> {
  const database = await createDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = AUTH_SECRET;
  // The webhook receiver of check 5 listens on loopback.
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  const servers: Server[] = [];
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    console.log(`${ok ? "holds " : "BROKEN"} ${what}`);
    if (!ok) problems.push(what);
  };
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const { getDb } = await import("@/db/client");
    const { createApiKey } = await import("@/server/services/api-keys/create-api-key");
    const seed = await import("./lib/seed");
    const partner = await seed.createBenchPartner("two");
    const env = { databaseUrl: database.url, authSecret: AUTH_SECRET };
    servers.push(await startApp(env, TMP, path.resolve(".")), await startApp(env, TMP, path.resolve(".")));
    const [a, b] = servers as [Server, Server];
    console.log(`two app processes: ${a.url} (pid ${a.serverPid()}), ${b.url} (pid ${b.serverPid()})`);
    const post = (server: Server, key: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.url + CREATE, {
        method: "POST",
        headers: { "content-type": "application/svc.shipping-order+json", "x-api-key": key, ...headers },
        body: JSON.stringify(body),
      });

    // 1. Rate limit: a key of 120 a minute (2 a second), 300 requests at once, alternating processes.
    const limit = 120;
    const limited = await createApiKey(
      await getDb(),
      { userId: partner.userId, isStaff: false },
      { accountId: partner.accountId, name: "limited", rateLimitPerMinute: limit },
    );
    // Open both pools first: a burst that also opens connections can meet PostgreSQL's connect timeout on a busy box.
    await Promise.all(
      servers.flatMap((s) =>
        Array.from({ length: 10 }, () => fetch(`${s.url}/api/v2/couriers`, { headers: { "x-api-key": partner.key } })),
      ),
    );
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${servers[i % 2]!.url}/api/v2/couriers`, { headers: { "x-api-key": limited.key } }).then(
          (r) => r.status,
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const allowed = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    const ceiling = limit + Math.ceil((seconds * limit) / 60);
    console.log(
      `rate limit ${limit}/min, 300 requests over both processes in ${seconds.toFixed(2)} s: statuses ${JSON.stringify(count(statuses))}, ${allowed} allowed, ${refused} refused (429), bucket + refill allows at most ${ceiling}`,
    );
    // A 503 (the database did not answer in time on an overloaded machine) takes no token; anything else is a bug.
    const unavailable = statuses.filter((s) => s === 503).length;
    check(
      allowed + refused + unavailable === 300 && allowed <= ceiling && allowed + unavailable >= limit,
      "one bucket per key across processes",
    );

    // 2. Idempotency: one key, 20 concurrent sends of the same create, alternating processes.
    const idemBody = order(`IDEM-${tag}`);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const r = await post(servers[i % 2]!, partner.key, idemBody, { "idempotency-key": `idem-${tag}` });
        const text = await r.text();
        return { status: r.status, id: r.ok ? (JSON.parse(text) as { items: { id: string }[] }).items[0]!.id : null };
      }),
    );
    const ok = answers.filter((x) => x.status === 200);
    const inProgress = answers.filter((x) => x.status === 409).length;
    // A retry after the first finished answers the stored order, whichever process it reaches.
    const retries = await Promise.all(
      servers.map(async (s) => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const r = await post(s, partner.key, idemBody, { "idempotency-key": `idem-${tag}` });
          if (r.status !== 409)
            return {
              status: r.status,
              replayed: r.headers.get("idempotent-replayed"),
              id: ((await r.json()) as { items: { id: string }[] }).items[0]!.id,
            };
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return { status: 409, replayed: null, id: null };
      }),
    );
    const [{ n: idemOrders }] = (await sql`
      select count(*)::int as n from shipping_orders where reference_number = ${`IDEM-${tag}`}`) as unknown as [
      { n: number },
    ];
    const ids = new Set([...ok.map((x) => x.id), ...retries.map((x) => x.id)]);
    console.log(
      `idempotency: 20 concurrent sends → ${ok.length} × 200, ${inProgress} × 409 in progress, other ${20 - ok.length - inProgress}; retries ${retries.map((r) => `${r.status} replayed=${r.replayed}`).join(", ")}; orders stored: ${idemOrders}; distinct ids answered: ${ids.size}`,
    );
    check(
      idemOrders === 1 &&
        ids.size === 1 &&
        ok.length + inProgress === 20 &&
        retries.every((r) => r.status === 200 && r.replayed === "true"),
      "one Idempotency-Key creates one order across processes",
    );

    // 3. Replacement: 20 concurrent creates of one reference (no Idempotency-Key), alternating processes.
    const replaced = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(servers[i % 2]!, partner.key, order(`SAME-${tag}`)).then((r) => r.status),
      ),
    );
    const [{ live, total }] = (await sql`
      select count(*) filter (where deleted_at is null)::int as live, count(*)::int as total
      from shipping_orders where reference_number = ${`SAME-${tag}`}`) as unknown as [{ live: number; total: number }];
    console.log(
      `replacement: 20 concurrent creates of one reference → statuses ${JSON.stringify(count(replaced))}; ${total} stored, ${live} live`,
    );
    check(live === 1 && total === 20 && replaced.every((s) => s === 200), "exactly one live order per reference");

    // 5 (set-up): a webhook endpoint for the load's events; the app processes run with WORKER=off, so nothing is
    // delivered until the two worker processes start after the load.
    const receiver = await startEventReceiver();
    const { createWebhookEndpoint } = await import("@/server/services/webhooks/create-webhook-endpoint");
    await createWebhookEndpoint(
      await getDb(),
      { userId: partner.userId, isStaff: false },
      { accountId: partner.accountId, url: receiver.url },
    );
    const [{ before }] = (await sql`
      select count(*)::int as before from events where account_id = ${partner.accountId}`) as unknown as [
      { before: number },
    ];
    // The feed, read from the start through both processes in turn while the load writes, until it is drained.
    const feedIds: string[] = [];
    let loading = true;
    const readFeed = (async () => {
      let after: string | null = null;
      for (let i = 0; ; i++) {
        // Whether the load had ended before this read began: only then does an empty `next` mean drained (a read
        // that began during the load may not see the last creates' events).
        const afterLoad = !loading;
        const query: string = after ? `?limit=100&after=${after}` : "?limit=100";
        const r = await fetch(`${servers[i % 2]!.url}/api/v2/events${query}`, {
          headers: { "x-api-key": partner.key },
        });
        if (!r.ok) throw new Error(`/events answered ${r.status}: ${await r.text()}`);
        const page = (await r.json()) as { items: { id: string }[]; next: string | null };
        feedIds.push(...page.items.map((e) => e.id));
        if (page.items.length) after = page.items.at(-1)!.id;
        if (page.next === null && afterLoad) return;
        if (page.next === null) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    // 4. Load through both processes at once.
    let sequence = 0;
    const requests = [
      {
        method: "POST" as const,
        path: CREATE,
        headers: { "content-type": "application/svc.shipping-order+json", "x-api-key": partner.key },
        setupRequest: (r: object) => ({ ...r, body: JSON.stringify(order(`LOAD-${tag}-${++sequence}`)) }),
      },
    ];
    const [ra, rb] = await Promise.all(
      servers.map((s) =>
        load({
          name: "create",
          target: s.name,
          url: s.url,
          connections: 8,
          duration: DURATION,
          requests,
          check: (body) => body.includes('"failed":[]'),
        }),
      ),
    );
    const [{ parcels, numbers }] = (await sql`
      select count(*)::int as parcels, count(distinct shipping_number)::int as numbers from parcels`) as unknown as [
      { parcels: number; numbers: number },
    ];
    console.log(
      `load: create at 8 + 8 connections for ${DURATION} s: ${ra!.rps.toFixed(0)} + ${rb!.rps.toFixed(0)} creates/s, errors ${ra!.errors + rb!.errors}, non-2xx ${ra!.non2xx + rb!.non2xx}, bad ${ra!.bad + rb!.bad}; ${parcels} parcels, ${numbers} distinct shipping numbers`,
    );
    check(
      ra!.errors + rb!.errors + ra!.non2xx + rb!.non2xx + ra!.bad + rb!.bad === 0 && parcels === numbers,
      "every create answered, no shipping number twice",
    );

    // 5. Events across the processes.
    loading = false;
    await readFeed;
    const stored = (await sql`
      select id, type from events where account_id = ${partner.accountId} and type like 'shipping_order.%'`) as unknown as {
      id: string;
      type: string;
    }[];
    const feedSet = new Set(feedIds);
    const missing = stored.filter((e) => !feedSet.has(e.id)).length;
    const [{ orders, createdEvents, ordersWithOne }] = (await sql`
      select count(*)::int as orders,
             (select count(*)::int from events e where e.account_id = ${partner.accountId} and e.type = 'shipping_order.created') as "createdEvents",
             count(*) filter (where (select count(*) from events e where e.order_id = o.id and e.type = 'shipping_order.created') = 1)::int as "ordersWithOne"
      from shipping_orders o where o.account_id = ${partner.accountId}`) as unknown as [
      { orders: number; createdEvents: number; ordersWithOne: number },
    ];
    console.log(
      `events: the feed read ${feedIds.length} events through both processes during the load (${feedSet.size} distinct), ${stored.length} stored, ${missing} stored but never in the feed; ${orders} orders, ${createdEvents} created events, ${ordersWithOne} orders with exactly one`,
    );
    check(
      feedIds.length === feedSet.size && missing === 0 && feedIds.length === stored.length,
      "the /events feed returns every event once, read through either process",
    );
    check(orders === createdEvents && orders === ordersWithOne, "one created event per order");
    const [{ queued, loadWithout }] = (await sql`
      select (select count(*)::int from webhook_deliveries where account_id = ${partner.accountId}) as queued,
             (select count(*)::int from events e
               where e.account_id = ${partner.accountId} and e.type like 'shipping_order.%'
                 and e.data->'shippingOrder'->>'referenceNumber' like ${`LOAD-${tag}-%`}
                 and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)) as "loadWithout"`) as unknown as [
      { queued: number; loadWithout: number },
    ];
    const workers = [startWorkerProcess(database.url), startWorkerProcess(database.url)];
    try {
      const deadline = Date.now() + 120_000;
      while (receiver.arrivals.size < queued && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.close();
    }
    const [{ succeeded, attempts }] = (await sql`
      select count(*) filter (where status = 'succeeded')::int as succeeded, coalesce(sum(attempts), 0)::int as attempts
      from webhook_deliveries where account_id = ${partner.accountId}`) as unknown as [
      { succeeded: number; attempts: number },
    ];
    console.log(
      `webhooks: ${stored.length - before} events since the endpoint, ${queued} deliveries queued (${loadWithout} events of the load without one); two worker processes delivered ${receiver.arrivals.size} distinct events, ${succeeded} deliveries succeeded in ${attempts} attempts`,
    );
    check(
      loadWithout === 0 && receiver.arrivals.size === queued && succeeded === queued && attempts === queued,
      "two workers deliver every event of the load",
    );
    return problems.length ? 1 : 0;
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    await sql.end({ timeout: 1 });
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    await dropDatabase(database.name);
  }
}

const count = (xs: number[]) => xs.reduce<Record<number, number>>((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {});

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
