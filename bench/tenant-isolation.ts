/**
 * `npx tsx bench/tenant-isolation.ts [--build] [--seconds=N] [--points=N] [--keys=N]`
 *
 * Another tenant's latency while someone sends the platform requests that cost it far more than they are charged
 * (issue 39's findings): a paced victim (its own secret key, 20 searches a second, well within its limits) is
 * measured alone and beside each attack in turn, on one production app (`scripts/serve.ts` of a copy of the build,
 * WORKER=off) over a fresh database with `--points` Packeta pickup points and `--keys` publishable keys of other
 * accounts (what a CORS preflight used to scan). The attacks:
 *
 * - **refused publishable-key requests**: the shop's widget key without `Origin`, from one address, as fast as four
 *   connections go. Beside it a shopper (every request from an address of its own, the right `Origin`) and, after
 *   it, the shop's secret key: both must still be answered, not 429.
 * - **expensive searches**: another account's secret key within its own per-key limit (10 a second), each search
 *   as costly as it can make it (50 one-letter words, a page past the matches, a zip filter).
 * - **`/docs/shipping-orders`**: the API reference's largest page, unauthenticated, four connections from one address.
 * - **CORS preflights**: `OPTIONS` of the search with a new `Origin` each time, four connections.
 *
 * Requests carry `X-Forwarded-For` through a trusted proxy (TRUSTED_PROXIES=127.0.0.1), so each client has the
 * address the scenario gives it. Prints a Markdown table (victim p95 alone and beside each attack, the ratio, what
 * the attack was answered); the figures from before and after the fixes are in bench/results.md §5h. Exit 1 when a
 * run had errors, or a shopper or the shop's secret key was refused; never on speed.
 */
import os from "node:os";
import path from "node:path";
import { rmSync } from "node:fs";
import postgres from "postgres";
import type { Request } from "autocannon";
import autocannon from "autocannon";
import { preparedBuild } from "./lib/build";
import { createDatabase, dropDatabase } from "./lib/database";
import { percentile } from "./lib/load";
import { startApp, stopTree, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const SECONDS = Number(option("seconds") ?? 10);
const POINTS = Number(option("points") ?? 100_000);
const KEYS = Number(option("keys") ?? 100_000);
const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const APP_COPY = path.join(os.tmpdir(), `sop-bench-isolation-app-${process.pid}`);
const SHOP_ORIGIN = "https://shop.example";
const log = (m: string) => console.error(`[isolation ${new Date().toISOString().slice(11, 19)}] ${m}`);

type Run = { requests: number; p50: number; p95: number; statusCodes: Record<string, number>; errors: number };

/** One autocannon run, latencies from every response's own duration; `overallRate` paces it (requests a second). */
async function run(o: {
  url: string;
  connections: number;
  seconds: number;
  requests: Request[];
  overallRate?: number;
}): Promise<Run> {
  const latencies: number[] = [];
  const instance = autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    requests: o.requests,
    timeout: 30,
    ...(o.overallRate ? { overallRate: o.overallRate } : {}),
  });
  instance.on("response", (_c: unknown, _s: number, _b: number, ms: number) => latencies.push(ms));
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    errors: result.errors + result.timeouts,
  };
}

let address = 0;
let probes = 0;
/** A new client address for each call (10.x.y.z), so per-address limits never meet the shopper. */
const nextAddress = () => {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

async function main(): Promise<number> {
  const failures: string[] = [];
  const build = await preparedBuild({
    dir: APP_COPY,
    build: argv.includes("--build") ? true : "if-missing",
    log: (m) => log(`build: ${m}`),
  });
  const database = await createDatabase();
  let app: Server | undefined;
  const sql = postgres(database.url, { max: 4, onnotice: () => {} });
  try {
    process.env.DATABASE_URL = database.url;
    process.env.AUTH_SECRET = AUTH_SECRET;
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const { getDb, closeDb } = await import("@/db/client");
    const db = await getDb();
    const { createUser } = await import("@/server/services/accounts/create-user");
    const { createApiKey } = await import("@/server/services/api-keys/create-api-key");
    const { syntheticPoints } = await import("@/server/pickup-points/synthetic");
    const { insertDirectoryPoints } = await import("@/test/pickup-points");
    const tenant = async (label: string) => {
      const { userId, accountId } = await createUser(db, {
        email: `${label}-${Date.now()}@bench.example`,
        password: "bench-password-1234",
        accountName: `Bench ${label}`,
      });
      return { actor: { userId, isStaff: false }, accountId };
    };
    const victim = await tenant("victim");
    const attacker = await tenant("attacker");
    const shop = await tenant("shop");
    // The victim's and the shop's secret keys at the contract's highest limit: only the account ceiling applies.
    const victimKey = (await createApiKey(db, victim.actor, { name: "victim", rateLimitPerMinute: 100_000 })).key;
    const shopSecret = (await createApiKey(db, shop.actor, { name: "shop server" })).key;
    const attackerKey = (await createApiKey(db, attacker.actor, { name: "attacker" })).key;
    const widgetKey = (
      await createApiKey(db, shop.actor, { name: "widget", kind: "publishable", allowedOrigins: [SHOP_ORIGIN] })
    ).key;
    log(`seeding ${POINTS.toLocaleString("en")} Packeta points and ${KEYS.toLocaleString("en")} publishable keys…`);
    await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: POINTS }), 2000);
    // Other shops' widget keys, 50 to an account, written in SQL (their secrets are never used).
    await sql`insert into accounts (name) select 'Bench other ' || g from generate_series(1, ${Math.ceil(KEYS / 50)}) g`;
    await sql`
      insert into api_keys (account_id, name, key_hash, suffix, kind, allowed_origins, permissions)
      select a.id, 'widget ' || k, md5(a.id::text || k), 'xxxx', 'publishable',
             array['https://shop-' || left(a.id::text, 8) || '-' || k || '.example'], '{}'
      from (select id from accounts where name like 'Bench other %') a, generate_series(1, 50) k
      limit ${KEYS}`;
    await sql`analyze`;
    await closeDb();

    app = await startApp(
      {
        databaseUrl: database.url,
        authSecret: AUTH_SECRET,
        // The product's own ceiling, not the other benches' unlimited one: what a refused request may spend is the point.
        extraEnv: { ACCOUNT_RATE_LIMIT_PER_MINUTE: "6000", TRUSTED_PROXIES: "127.0.0.1" },
      },
      os.tmpdir(),
      build.dir,
      "app-isolation",
    );
    const search = "/api/v2/couriers/packeta/pickup-points";
    const towns = ["Plzeň", "Brno", "Praha", "Ostrava", "Olomouc", "Liberec"];
    let t = 0;
    const victimRequests: Request[] = [
      {
        method: "GET",
        setupRequest: (r) => ({
          ...r,
          path: `${search}?q=${encodeURIComponent(towns[t++ % towns.length]!)}`,
          headers: { "x-api-key": victimKey, "x-forwarded-for": "10.200.0.1" },
        }),
      },
    ];
    const probe = await fetch(`${app.url}${search}?q=Plze%C5%88`, { headers: { "x-api-key": victimKey } });
    if (probe.status !== 200) throw new Error(`the victim's search answers ${probe.status}: ${await probe.text()}`);
    const victimRun = (seconds: number) =>
      run({ url: app!.url, connections: 2, seconds, requests: victimRequests, overallRate: 20 });
    log("warming up");
    await victimRun(3);

    type Attack = {
      name: string;
      requests: Request[];
      connections: number;
      overallRate?: number;
      /** Checked beside and after the attack; answers what went wrong, if anything. */
      alongside?: () => Promise<string[]>;
    };
    const attacks: Attack[] = [
      {
        name: "refused publishable-key requests (no Origin, one address)",
        connections: 4,
        requests: [
          {
            method: "GET",
            path: `${search}?q=Brno`,
            headers: { "x-api-key": widgetKey, "x-forwarded-for": "10.66.0.1" },
          },
        ],
        alongside: async () => {
          const problems: string[] = [];
          const shopper: Record<number, number> = {};
          const deadline = Date.now() + SECONDS * 1000 - 500;
          while (Date.now() < deadline) {
            const r = await fetch(`${app!.url}${search}?q=Plze%C5%88`, {
              headers: { "x-api-key": widgetKey, origin: SHOP_ORIGIN, "x-forwarded-for": nextAddress() },
            });
            await r.arrayBuffer();
            shopper[r.status] = (shopper[r.status] ?? 0) + 1;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          const refused = Object.entries(shopper).filter(([s]) => s !== "200");
          if (refused.length) problems.push(`shoppers elsewhere were answered ${JSON.stringify(shopper)}`);
          const secret = await fetch(`${app!.url}/api/v2/couriers`, {
            headers: { "x-api-key": shopSecret, "x-forwarded-for": "10.201.0.1" },
          });
          await secret.arrayBuffer();
          if (secret.status !== 200)
            problems.push(`the shop's secret key was answered ${secret.status} after the flood`);
          return problems;
        },
      },
      {
        name: "expensive searches (another account's secret key, 10/s: 50 one-letter words, far pages, zip)",
        connections: 4,
        overallRate: 10,
        requests: [
          `${search}?q=${encodeURIComponent(Array(50).fill("a").join(" "))}`,
          `${search}?q=a&page=999999999`,
          `${search}?zip=${encodeURIComponent("110 00")}&open=false`,
          `${search}?q=${encodeURIComponent("a e i o u y")}&page=4000`,
        ].map((p) => ({
          method: "GET" as const,
          path: p,
          headers: { "x-api-key": attackerKey, "x-forwarded-for": "10.66.0.2" },
        })),
      },
      {
        name: "/docs/shipping-orders, the reference's largest page (unauthenticated, one address)",
        connections: 4,
        requests: [{ method: "GET", path: "/docs/shipping-orders", headers: { "x-forwarded-for": "10.66.0.3" } }],
      },
      {
        name: `CORS preflights (a new Origin each, ${KEYS.toLocaleString("en")} publishable keys stored)`,
        connections: 4,
        requests: [
          {
            method: "OPTIONS",
            setupRequest: (r) => ({
              ...r,
              path: `${search}?q=Brno`,
              headers: {
                origin: `https://probe-${probes++}.example`,
                "access-control-request-method": "GET",
                "access-control-request-headers": "x-api-key",
                "x-forwarded-for": "10.66.0.4",
              },
            }),
          },
        ],
      },
    ];

    const rows: string[] = [];
    log(`victim alone, ${SECONDS} s`);
    const alone = await victimRun(SECONDS);
    const line = (name: string, v: Run, against: Run | null, attack: string) =>
      `| ${name} | ${v.requests} | ${v.p50.toFixed(1)} | ${v.p95.toFixed(1)} | ${
        against ? `${(v.p95 / against.p95).toFixed(2)}×` : "–"
      } | ${attack} |`;
    rows.push(line("victim alone", alone, null, "–"));
    for (const attack of attacks) {
      log(attack.name);
      const [v, a, problems] = await Promise.all([
        victimRun(SECONDS),
        run({
          url: app.url,
          connections: attack.connections,
          seconds: SECONDS,
          requests: attack.requests,
          overallRate: attack.overallRate,
        }),
        attack.alongside?.() ?? Promise.resolve([]),
      ]);
      const answered = Object.entries(a.statusCodes)
        .map(([s, n]) => `${n} × ${s}`)
        .join(", ");
      rows.push(line(`beside ${attack.name}`, v, alone, `${(a.requests / SECONDS).toFixed(0)}/s: ${answered}`));
      if (v.errors || v.statusCodes["200"] !== v.requests)
        failures.push(`${attack.name}: the victim was answered ${JSON.stringify(v.statusCodes)}, ${v.errors} errors`);
      failures.push(...problems.map((p) => `${attack.name}: ${p}`));
      log(`  victim p95 ${v.p95.toFixed(1)} ms (alone ${alone.p95.toFixed(1)}); attack ${answered}`);
    }
    const again = await victimRun(SECONDS);
    rows.push(line("victim alone again", again, alone, "–"));
    console.log(
      [
        `build ${build.id}; ${POINTS.toLocaleString("en")} points, ${KEYS.toLocaleString("en")} stored publishable keys, ${SECONDS} s per run; victim: 20 searches/s on 2 connections`,
        "",
        "| run | victim requests | victim p50 ms | victim p95 ms | p95 ÷ alone | the attack (rate: answers) |",
        "| --- | --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n"),
    );
    if (failures.length) console.error(`\nFAILED:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
    return failures.length ? 1 : 0;
  } finally {
    if (app) await stopTree(app.child.pid, app.stop);
    await sql.end({ timeout: 1 });
    await dropDatabase(database.name).catch((e: unknown) => console.error(`could not drop ${database.name}:`, e));
    rmSync(APP_COPY, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    rmSync(APP_COPY, { recursive: true, force: true });
    process.exit(1);
  },
);
