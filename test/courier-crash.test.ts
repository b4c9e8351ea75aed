import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { createUser } from "@/server/services/accounts/create-user";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { recoverAttempts } from "@/server/services/couriers/recover-attempts";
import { migrateCluster, startCluster, type Cluster } from "@/test/pg-cluster";
import { order } from "@/test/partner";
import { pollUntil } from "@/test/helpers";

/**
 * No orphan shipments, shown with a real crash: a create runs in a process of its own on a throwaway PostgreSQL
 * cluster against the fake PPL, and is killed (SIGKILL) after PPL registered the shipments but before the orders
 * committed. The test holds a table lock so the kill lands exactly there, with no guess at timing: it waits until
 * the child's statement is blocked on that lock. The recovery job then adopts what PPL registered, once.
 */

const PPL_ID = "crash-client";
const PPL_SECRET = "crash-client-secret-0001";

let cluster: Cluster;
let admin: Sql;
let db: Db;
let ppl: Awaited<ReturnType<typeof startFakePpl>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  cluster = await startCluster();
  await migrateCluster(cluster.url);
  admin = postgres(cluster.url, { max: 4, onnotice: () => {} });
  db = drizzle({ client: admin, schema }) as unknown as Db;
  ppl = await startFakePpl({ clientId: PPL_ID, clientSecret: PPL_SECRET });
  process.env.COURIER_PPL_URL = ppl.url;
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await ppl?.close();
  await admin?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

async function accountWithPplProfile() {
  const user = await createUser(db, {
    email: `crash-${crypto.randomUUID()}@test.example`,
    password: "correct horse battery",
    accountName: "Crash",
  });
  const profile = await createCourierProfile(
    db,
    { userId: user.userId, isStaff: false },
    {
      accountId: user.accountId,
      courier: "ppl",
      name: "PPL",
      isDefault: true,
      settings: { clientId: PPL_ID, clientSecret: PPL_SECRET },
    },
  );
  return { accountId: user.accountId, profileId: profile.id };
}

function createInChild(accountId: string, profileId: string, orders: unknown[]): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "test/children/create-orders.ts",
      JSON.stringify({
        origin: { accountId },
        command: {
          courierId: "ppl",
          profileId,
          batch: { orders, many: true },
          preventDuplicateOrders: false,
          baseUrl: "http://localhost:3000",
        },
      }),
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: cluster.url,
        PGLITE_SNAPSHOT: "",
        NODE_ENV: "test",
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "sop-crash-")),
        COURIER_PPL_URL: ppl.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  return child;
}

const exitOf = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));

/** Whether a backend other than ours waits on a lock (the child's statement, blocked by the test's lock). */
const someoneWaitsOnALock = async (lockHolder: Sql) => {
  const [row] = await lockHolder`
    select count(*)::int as n from pg_stat_activity
    where wait_event_type = 'Lock' and pid <> pg_backend_pid() and datname = current_database()`;
  return (row?.n ?? 0) > 0;
};

describe("a create killed between the courier's answer and the commit", () => {
  it("leaves an attempt that recovery adopts: the orders appear once, with their events", async () => {
    const { accountId, profileId } = await accountWithPplProfile();
    const orders = [order({ ReferenceNumber: "CRASH-1" }), order({ ReferenceNumber: "CRASH-2" })];
    // The orders' insert waits behind this lock; reading (duplicate checks) and the attempt's own writes do not.
    const holder = await admin.reserve();
    await holder`begin`;
    await holder`lock table shipping_orders in share mode`;
    const child = createInChild(accountId, profileId, orders);
    let answered = false;
    try {
      const waiting = await pollUntil(
        async () => {
          const [attempt] = await db
            .select({ answers: schema.courierAttempts.answers })
            .from(schema.courierAttempts)
            .where(eq(schema.courierAttempts.accountId, accountId));
          answered = Boolean(attempt?.answers);
          return answered && (await someoneWaitsOnALock(holder));
        },
        (ready) => ready,
        { timeoutMs: 60_000 },
      );
      expect(waiting, "the child has PPL's answer and waits for the commit").toBe(true);
      child.kill("SIGKILL");
      await exitOf(child);
    } finally {
      await holder`rollback`;
      holder.release();
    }
    expect(answered).toBe(true);
    const registered = ppl.requests.filter((r) => r.method === "POST" && r.path.endsWith("/shipment/batch")).length;
    expect(registered).toBeGreaterThan(0);
    // Nothing committed: no order, no event; the attempt with PPL's answer is all there is.
    const count = async (table: string) =>
      rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from ${sql.raw(table)} where account_id = ${accountId}`),
      )[0]!.n;
    expect(await count("shipping_orders")).toBe(0);
    expect(await count("events")).toBe(0);
    expect(await count("courier_attempts")).toBe(1);

    // Not yet overdue: recovery leaves a fresh attempt alone (its process may still be committing).
    expect((await recoverAttempts(db)).attempts).toBe(0);
    const later = new Date(Date.now() + 30 * 60_000);
    expect(await recoverAttempts(db, { now: later })).toMatchObject({ attempts: 1, adopted: 2, cancelled: 0 });
    const stored = await db
      .select({ ref: schema.shippingOrders.referenceNumber })
      .from(schema.shippingOrders)
      .where(eq(schema.shippingOrders.accountId, accountId));
    expect(stored.map((s) => s.ref).sort()).toEqual(["CRASH-1", "CRASH-2"]);
    const created = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from events where account_id = ${accountId} and type = 'shipping_order.created'`,
      ),
    )[0]!.n;
    expect(created).toBe(2);
    // The attempt stays as a record, settled: no later recovery claims it.
    const states = await db
      .select({ state: schema.courierAttempts.state })
      .from(schema.courierAttempts)
      .where(eq(schema.courierAttempts.accountId, accountId));
    expect(states).toEqual([{ state: "recovered" }]);
    // A second recovery finds nothing: adopted once.
    expect((await recoverAttempts(db, { now: later })).attempts).toBe(0);
  }, 120_000);
});
