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
 *
 * The scenarios themselves are in bench/lib/pickup-point-scenarios.ts (bench/smoke.ts runs them too, on its shared server set).
 */
import { createDatabase, dropDatabase } from "./lib/database";
import { pickupPointConfig, runPickupPointScenarios, type PickupPointTarget } from "./lib/pickup-point-scenarios";
import postgres from "postgres";

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const QUICK = argv.includes("--quick");
const KEEP = argv.includes("--keep-db");
const cfg = pickupPointConfig({ quick: QUICK, points: option("points") });
const log = (m: string) => console.error(`[pickup-points ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function main(): Promise<void> {
  const database = await createDatabase();
  process.env.DATABASE_URL = database.url;
  // One connection: a backend's first call of a statement shape pays its catalog lookups (80–180 ms for the
  // suggestions' jsonb_to_recordset), and a pool of ten cold connections made every run of a few a first call.
  process.env.DATABASE_POOL_MAX = "1";
  process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789-bench-auth-secret";
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  let targets: PickupPointTarget[] = [];
  try {
    const { migrate } = await import("@/server/migrate");
    await migrate();
    const { getDb } = await import("@/db/client");
    const db = await getDb();
    const result = await runPickupPointScenarios({ db, sql, cfg, log });
    targets = result.targets;
    console.log(result.table);
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
