/**
 * `npx tsx bench/pickup-points.ts [--points=100000] [--quick] [--keep-db]`
 *
 * Issue 30's search and validation targets, in-process (server time: the service call as a route makes it, on
 * real PostgreSQL at DATABASE_URL's or BENCH_ADMIN_URL's server, in a fresh database `sop_bench_<ts>`):
 * - the nearest 20 open points within 10 km of many random places around real towns, and text searches (`q`),
 *   each ≤ 15 ms at p50 over a directory of 100,000 points of one courier;
 * - validation of a batch of 500 Packeta PICKUP_POINT orders (the directory checked, some with suggestions)
 *   against the same batch as HOME orders (no directory lookup): the pickup-point checks add ≤ 50 ms.
 * Prints a Markdown table; exits 2 when a target is missed in a full run. `--quick` (CI): 20,000 points and fewer
 * rounds, under a minute; it checks that every scenario runs, not the figures.
 */
import { createDatabase, dropDatabase, serverVersion } from "./lib/database";
import postgres from "postgres";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const QUICK = argv.includes("--quick");
const KEEP = argv.includes("--keep-db");
const POINTS = Number(option("points") ?? (QUICK ? 20_000 : 100_000));
const ROUNDS = QUICK ? 60 : 400;
const BATCH_RUNS = QUICK ? 3 : 9;
const log = (m: string) => console.error(`[pickup-points ${new Date().toISOString().slice(11, 19)}] ${m}`);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function timed<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await fn();
  samples.push(performance.now() - t0);
  return result;
}

async function main(): Promise<void> {
  const database = await createDatabase();
  process.env.DATABASE_URL = database.url;
  // One connection: a backend's first call of a statement shape pays its catalog lookups (80–180 ms for the
  // suggestions' jsonb_to_recordset), and a pool of ten cold connections made every run of a few a first call.
  process.env.DATABASE_POOL_MAX = "1";
  process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789-bench-auth-secret";
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const targets: { name: string; figure: string; met: boolean }[] = [];
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const { getDb } = await import("@/db/client");
    const db = await getDb();
    const { syntheticPoints, TOWNS } = await import("@/server/pickup-points/synthetic");
    const { insertDirectoryPoints } = await import("@/test/pickup-points");
    const { searchPickupPoints } = await import("@/server/services/pickup-points/search-pickup-points");
    const { createRandom } = await import("@/lib/random");
    log(`seeding ${POINTS.toLocaleString("en")} packeta points…`);
    const t0 = performance.now();
    await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: POINTS }), 2000);
    await sql`analyze pickup_points`;
    log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const random = createRandom(30);
    const rows: string[] = [];
    const row = (name: string, samples: number[], target?: number) => {
      const p50 = quantile(samples, 0.5);
      const p95 = quantile(samples, 0.95);
      rows.push(
        `| ${name} | ${samples.length} | ${p50.toFixed(2)} | ${p95.toFixed(2)} | ${Math.max(...samples).toFixed(1)} |`,
      );
      if (target !== undefined)
        targets.push({ name: `${name} p50 ≤ ${target} ms`, figure: `${p50.toFixed(2)} ms`, met: p50 <= target });
      log(`${name}: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`);
    };

    // Nearest 20 within 10 km: anywhere within ~15 km of a town's centre (dense city centres and thin outskirts).
    const near: number[] = [];
    for (let i = 0; i < ROUNDS + 20; i++) {
      const town = random.pick(TOWNS);
      const at = { lat: town.lat + (random.next() - 0.5) * 0.25, lon: town.lon + (random.next() - 0.5) * 0.35 };
      const samples = i < 20 ? [] : near;
      await timed(samples, () =>
        searchPickupPoints(db, { courier: "packeta", near: at, radiusKm: 10, page: 1, pageSize: 20 }),
      );
    }
    row("nearest 20 within 10 km (random places near towns)", near, 15);

    const words = [
      "praha",
      "plzen",
      "brno",
      "ostrava",
      "budejovice",
      "kosice",
      "bratislava",
      "wien",
      "krakow",
      "zbox",
      "albert",
      "namesti",
      "hlavni",
      "110",
      "602 00",
      "plzen zbox",
      "praha hlavni",
      "masarykova brno",
    ];
    const text: number[] = [];
    for (let i = 0; i < ROUNDS + 20; i++) {
      const q = words[i % words.length]!;
      const samples = i < 20 ? [] : text;
      await timed(samples, () => searchPickupPoints(db, { courier: "packeta", q, page: 1, pageSize: 20 }));
    }
    row(`text search (q: ${words.length} words and phrases, round robin)`, text, 15);

    const textNear: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const town = random.pick(TOWNS);
      await timed(textNear, () =>
        searchPickupPoints(db, {
          courier: "packeta",
          q: words[i % words.length]!,
          near: { lat: town.lat, lon: town.lon },
          radiusKm: 10,
          page: 1,
          pageSize: 20,
        }),
      );
    }
    row("text search with near (10 km)", textNear);

    // Validation of a batch of 500: Packeta PICKUP_POINT orders naming directory points (every 200th point of the
    // feed, so about 3 % closed ones, whose suggestions are looked up), against the same orders as HOME (no point).
    const { createBenchPartner } = await import("./lib/seed");
    const { createCourierProfile } = await import("@/server/services/courier-profiles/create-courier-profile");
    const { validateShippingOrders } = await import("@/server/services/shipping-orders/validate-shipping-orders");
    const { pickupPointSyncs } = await import("@/db/schema");
    await db.insert(pickupPointSyncs).values({ feed: "packeta-points", courier: "packeta", lastSuccessAt: new Date() });
    const partner = await createBenchPartner("pickup-points");
    const actor = { userId: partner.userId, isStaff: false };
    const countries = [...new Set(TOWNS.map((t) => t.country))];
    const packetaProfile = await createCourierProfile(db, actor, {
      accountId: partner.accountId,
      courier: "packeta",
      name: "Packeta",
      service: "PICKUP_POINT",
      settings: {
        apiPassword: "p".repeat(32),
        sender: "bench",
        homeDeliveryCarriers: Object.fromEntries(countries.map((c, i) => [c, 100 + i])),
      },
    });
    const named = [...syntheticPoints({ courier: "packeta", count: POINTS })]
      .filter((_, i) => i % 200 === 7)
      .slice(0, 500);
    const batch = (service: string) =>
      named.map((p, i) => ({
        ReferenceNumber: `PP-${i}`,
        Service: service,
        ...(service === "PICKUP_POINT" ? { PickupPoint: p.id } : {}),
        InsurancePrice: 1000,
        ...(i % 3 === 0 ? { CodPrice: 250, CodCurrency: "CZK" } : {}),
        Recipient: {
          Name: "Jana Nováková",
          Street: "Dlouhá 12",
          City: p.city,
          Zip: p.zip,
          Country: p.country,
          Email: "jana@example.com",
          Phone: "+420777123456",
        },
        Parcels: [{ Weight: 1 + (i % 5) }],
      }));
    const runBatch = (orders: unknown[]) =>
      validateShippingOrders(
        db,
        { accountId: partner.accountId },
        { courierId: "packeta", profileId: packetaProfile.id, batch: { orders, many: true } },
      ) as Promise<{ status: string }[]>;
    const withPoints: number[] = [];
    const without: number[] = [];
    let failing = 0;
    for (let i = 0; i < BATCH_RUNS + 1; i++) {
      // Alternating, so both see the same state of the machine; the first of each is a warm-up.
      const a = await timed(i === 0 ? [] : withPoints, () => runBatch(batch("PICKUP_POINT")));
      await timed(i === 0 ? [] : without, () => runBatch(batch("HOME")));
      failing = a.filter((r) => r.status === "ERROR").length;
    }
    row(`validate 500 Packeta PICKUP_POINT orders (${failing} with a point error and suggestions)`, withPoints);
    row("validate the same 500 orders as HOME (no pickup point)", without);
    const added = quantile(withPoints, 0.5) - quantile(without, 0.5);
    targets.push({
      name: "pickup-point checks add to a batch of 500 ≤ 50 ms (p50 difference)",
      figure: `${added.toFixed(1)} ms`,
      met: added <= 50,
    });

    const out = [
      `### Pickup points (bench/pickup-points.ts${QUICK ? " --quick" : ""})`,
      "",
      `PostgreSQL ${await serverVersion(sql)}, ${POINTS.toLocaleString("en")} points of one courier, in-process service calls (server time), one connection at a time.`,
      "",
      "| scenario | calls | p50 ms | p95 ms | max ms |",
      "|---|---|---|---|---|",
      ...rows,
      "",
      "| target | figure | met |",
      "|---|---|---|",
      ...targets.map((t) => `| ${t.name} | ${t.figure} | ${t.met ? "yes" : "NO"} |`),
    ];
    console.log(out.join("\n"));
  } finally {
    await sql.end();
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    if (KEEP) log(`kept database ${database.name}`);
    else await dropDatabase(database.name);
  }
  if (!QUICK && targets.some((t) => !t.met)) process.exit(2);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
