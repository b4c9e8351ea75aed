/**
 * bench/pickup-points.ts's scenarios (its header says what they measure), on a database someone else made:
 * bench/pickup-points.ts (its own) and bench/smoke.ts (the shared one). In-process service calls on `db`, which
 * should have one connection (a backend's first call of a statement shape pays its catalog lookups, and a pool of
 * cold connections makes every run of a few a first call). Import after DATABASE_URL is set.
 */
import type postgres from "postgres";
import type { Db } from "@/db/client";
import { serverVersion } from "./database";

export type PickupPointConfig = { quick: boolean; points: number; rounds: number; batchRuns: number };

/** Quick mode (CI's smoke): 20,000 points and fewer rounds; it checks that every scenario runs, not the figures. */
export const pickupPointConfig = (o: { quick: boolean; points?: string }): PickupPointConfig => ({
  quick: o.quick,
  points: Number(o.points ?? (o.quick ? 20_000 : 100_000)),
  rounds: o.quick ? 60 : 400,
  batchRuns: o.quick ? 3 : 9,
});

export type PickupPointTarget = { name: string; figure: string; met: boolean };

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

/**
 * Seeds `cfg.points` Packeta points, runs the searches and the batch validations, and answers the Markdown table and
 * the targets (judged by bench/pickup-points.ts in a full run). `sql`: any connection to the database.
 */
export async function runPickupPointScenarios(ctx: {
  db: Db;
  sql: postgres.Sql;
  cfg: PickupPointConfig;
  log: (m: string) => void;
}): Promise<{ table: string; targets: PickupPointTarget[] }> {
  const { db, sql, cfg, log } = ctx;
  const targets: PickupPointTarget[] = [];
  const { syntheticPoints, TOWNS } = await import("@/server/pickup-points/synthetic");
  const { insertDirectoryPoints } = await import("@/test/pickup-points");
  const { searchPickupPoints } = await import("@/server/services/pickup-points/search-pickup-points");
  const { createRandom } = await import("@/lib/random");
  log(`seeding ${cfg.points.toLocaleString("en")} packeta points…`);
  const t0 = performance.now();
  await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: cfg.points }), 2000);
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
  for (let i = 0; i < cfg.rounds + 20; i++) {
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
  for (let i = 0; i < cfg.rounds + 20; i++) {
    const q = words[i % words.length]!;
    const samples = i < 20 ? [] : text;
    await timed(samples, () => searchPickupPoints(db, { courier: "packeta", q, page: 1, pageSize: 20 }));
  }
  row(`text search (q: ${words.length} words and phrases, round robin)`, text, 15);

  const textNear: number[] = [];
  for (let i = 0; i < cfg.rounds; i++) {
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
  const { createBenchPartner } = await import("./seed");
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
  const named = [...syntheticPoints({ courier: "packeta", count: cfg.points })]
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
  for (let i = 0; i < cfg.batchRuns + 1; i++) {
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
    `### Pickup points (bench/pickup-points.ts${cfg.quick ? " --quick" : ""})`,
    "",
    `PostgreSQL ${await serverVersion(sql)}, ${cfg.points.toLocaleString("en")} points of one courier, in-process service calls (server time), one connection at a time.`,
    "",
    "| scenario | calls | p50 ms | p95 ms | max ms |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "| target | figure | met |",
    "|---|---|---|",
    ...targets.map((t) => `| ${t.name} | ${t.figure} | ${t.met ? "yes" : "NO"} |`),
  ];
  return { table: out.join("\n"), targets };
}
