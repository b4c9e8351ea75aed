import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/server/http/problem";
import { startCluster, type Cluster } from "@/test/pg-cluster";
import { jobSql } from "@/server/queue/sql-adapter";
import { openPostgres, rowsOf, type Db } from "./client";
import { isDatabaseUnavailable } from "./connection-errors";

/**
 * Transactions of the app's own pool (max 2 connections) on a throwaway PostgreSQL cluster: a transaction
 * that fails for a reason outside the database is rolled back and its connection reused; one whose backend
 * is terminated is a 503 and the pool reconnects.
 */

let cluster: Cluster;
let admin: Sql;
let pool: Awaited<ReturnType<typeof openPostgres>>;
let db: Db;

/** A hang fails the test with a message instead of running into the test's time limit. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** What undici's `fetch` throws when the other side refuses the connection. */
const failedFetch = () =>
  new TypeError("fetch failed", {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), {
      code: "ECONNREFUSED",
      errno: -111,
      syscall: "connect",
    }),
  });

const count = async () => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from notes`))[0]!.n;

const appBackends = () => admin<{ pid: number; state: string }[]>`
  select pid, state from pg_stat_activity where application_name = 'shipping-order-platform' and datname = current_database()`;

beforeAll(async () => {
  cluster = await startCluster();
  admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  await admin`create table notes (id serial primary key, body text not null)`;
  pool = await openPostgres(cluster.url, 2);
  db = pool.db;
}, 120_000);

afterAll(async () => {
  await pool?.close();
  await admin?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

describe("a transaction that fails outside the database", () => {
  it("is rolled back, leaves no backend idle in transaction, and the pool of 2 keeps serving", async () => {
    for (let i = 0; i < 5; i++) {
      const failed = await within(
        10_000,
        `transaction ${i}`,
        db
          .transaction(async (tx) => {
            await tx.execute(sql`insert into notes (body) values (${`attempt ${i}`})`);
            throw failedFetch();
          })
          .catch((error: unknown) => error),
      );
      expect(failed).toBeInstanceOf(TypeError);
      expect(isDatabaseUnavailable(failed)).toBe(false);
    }
    expect(await within(10_000, "a query after the failed transactions", count())).toBe(0);
    expect((await appBackends()).filter((b) => b.state.startsWith("idle in transaction"))).toEqual([]);
    // Both connections still serve transactions at once.
    await within(
      10_000,
      "two transactions at once",
      Promise.all(
        [1, 2].map((n) =>
          db.transaction(async (tx) => {
            await tx.execute(sql`insert into notes (body) values (${`kept ${n}`})`);
            await tx.execute(sql`select pg_sleep(0.05)`);
          }),
        ),
      ),
    );
    expect(await count()).toBe(2);
  }, 60_000);

  it("answers a 500 of its own, not the 503 of a database outage", async () => {
    const response = errorResponse(failedFetch());
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.json()).toMatchObject({ status: 500, detail: expect.stringMatching(/unexpected error/) });
  });

  it("rolls back a failed savepoint and keeps the transaction's other work", async () => {
    await admin`truncate notes`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes (body) values ('outer')`);
      const inner = await tx
        .transaction(async (nested) => {
          await nested.execute(sql`insert into notes (body) values ('inner')`);
          throw failedFetch();
        })
        .catch((error: unknown) => error);
      expect(inner).toBeInstanceOf(TypeError);
    });
    const bodies = rowsOf<{ body: string }>(await db.execute(sql`select body from notes order by id`));
    expect(bodies.map((r) => r.body)).toEqual(["outer"]);
  });
});

describe("a transaction whose backend is terminated", () => {
  it("fails as a database outage (503), writes nothing, and the pool reconnects", async () => {
    await admin`truncate notes`;
    const failed = await within(
      20_000,
      "the transaction of a terminated backend",
      db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into notes (body) values ('lost')`);
          const [me] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
          await admin`select pg_terminate_backend(${me!.pid})`;
          await tx.execute(sql`insert into notes (body) values ('after the end')`);
        })
        .catch((error: unknown) => error),
    );
    expect(isDatabaseUnavailable(failed)).toBe(true);
    const response = errorResponse(failed);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    // The pool replaces the dead connection on demand; both connections serve again.
    const deadline = Date.now() + 15_000;
    let served = false;
    while (!served && Date.now() < deadline) {
      served = await db.execute(sql`select 1`).then(
        () => true,
        () => false,
      );
    }
    expect(served).toBe(true);
    expect(await count()).toBe(0);
    await within(
      10_000,
      "two transactions after the reconnect",
      Promise.all([1, 2].map(() => db.transaction((tx) => tx.execute(sql`insert into notes (body) values ('ok')`)))),
    );
    expect(await count()).toBe(2);
  }, 60_000);
});

describe("a transaction whose backend is terminated between two statements while the pool reconnects", () => {
  // Half a transaction: postgres.js moves a reserved connection whose socket closed to its closed
  // connections, and the next pool query reconnects that same Connection; unguarded, the reserved handle sends the
  // body's next statements to the new session, in autocommit (porsager/postgres#1155). db.transaction would
  // resolve with only the second statement stored. A pool of one connection makes the reconnect certain:
  // the pool query waits for the reserved connection and takes it over as soon as it closes.
  let single: Awaited<ReturnType<typeof openPostgres>>;
  beforeAll(async () => {
    single = await openPostgres(cluster.url, 1);
  });
  afterAll(async () => {
    await single?.close();
  });

  /** Statement 1, the backend terminated, a pool query served by the reconnected connection, then `after`. */
  const halfway = (after: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<unknown>) =>
    single.db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes (body) values ('first')`);
      const [me] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
      await admin`select pg_terminate_backend(${me!.pid})`;
      // Served on a new session of the same postgres.js Connection once the old one has closed.
      const [other] = rowsOf<{ pid: number }>(
        await within(10_000, "the pool query", single.db.execute(sql`select pg_backend_pid() as pid`)),
      );
      expect(other!.pid).not.toBe(me!.pid);
      return after(tx);
    });

  it("rejects the body's next statement, and stores neither", async () => {
    await admin`truncate notes`;
    const failed = await within(
      20_000,
      "the transaction",
      halfway((tx) => tx.execute(sql`insert into notes (body) values ('second')`)).then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(await admin`select body from notes`).toEqual([]);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    // The pool serves again, and transactions commit whole.
    await within(
      10_000,
      "a transaction after it",
      single.db.transaction((tx) => tx.execute(sql`insert into notes (body) values ('ok')`)),
    );
    expect((await admin<{ body: string }[]>`select body from notes`).map((r) => r.body)).toEqual(["ok"]);
  }, 60_000);

  it("refuses COMMIT when the body swallowed the failure, so the transaction rejects", async () => {
    await admin`truncate notes`;
    let swallowed: unknown = null;
    const failed = await within(
      20_000,
      "the transaction",
      halfway((tx) =>
        tx.execute(sql`insert into notes (body) values ('second')`).catch((error: unknown) => {
          swallowed = error;
        }),
      ).then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(await admin`select body from notes`).toEqual([]);
    expect(isDatabaseUnavailable(swallowed)).toBe(true);
    expect(isDatabaseUnavailable(failed)).toBe(true);
  }, 60_000);
});

describe("a reserved connection used after its backend is gone", () => {
  // postgres.js 3.4.9 buffers small writes behind setImmediate; on a connection whose socket had closed, that
  // timer threw `Cannot read properties of null (reading 'write')` as an uncaught exception (a crash in
  // production; here vitest's "unhandled error") and the query never settled (porsager/postgres#1208).
  // patches/postgres+3.4.9.patch settles it with CONNECTION_CLOSED instead.
  it("rejects every later query with CONNECTION_CLOSED and throws nothing uncaught", async () => {
    const client = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const reserved = await client.reserve();
    try {
      const [me] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await admin`select pg_terminate_backend(${me!.pid})`;
      // The first query may meet the backend's FATAL or the closed socket; once it has failed the socket is gone.
      await within(
        10_000,
        "the first query after the termination",
        reserved`select 1`.catch((e: unknown) => e),
      );
      for (let i = 0; i < 3; i++) {
        const error = await within(
          10_000,
          `query ${i + 2} on the dead connection`,
          reserved`select 1`.then(
            () => null,
            (e: unknown) => e as { code?: string },
          ),
        );
        expect(error?.code).toBe("CONNECTION_CLOSED");
      }
    } finally {
      reserved.release();
      await client.end({ timeout: 5 });
    }
  }, 60_000);
});

describe("pg-boss's maintenance script on a reserved connection whose backend is terminated", () => {
  it("fails, and the pool of 2 keeps serving every query afterwards (the dead connection is not taken back)", async () => {
    const boss = jobSql(db);
    // Parameterless SQL runs on a connection reserved for it (server/queue/sql-adapter.ts), as pg-boss's is.
    const running = boss.executeSql("select pg_sleep(30)", []).then(
      () => null,
      (error: unknown) => error,
    );
    const sleeper = await within(10_000, "the script to start", waitForSleeper());
    await admin`select pg_terminate_backend(${sleeper})`;
    expect(await within(10_000, "the script to fail", running)).toBeInstanceOf(Error);
    // Every connection of the pool serves again: more queries at once than the pool has connections, twice.
    for (let round = 0; round < 2; round++) {
      const answers = await within(
        10_000,
        `queries after the terminated script, round ${round}`,
        Promise.all(Array.from({ length: 4 }, () => db.execute(sql`select 1 as one`))),
      );
      expect(answers.map((r) => rowsOf<{ one: number }>(r)[0]!.one)).toEqual([1, 1, 1, 1]);
    }
    expect((await boss.executeSql("select 2 as two", [])).rows).toEqual([{ two: 2 }]);
  }, 60_000);
});

async function waitForSleeper(): Promise<number> {
  for (;;) {
    const [row] = await admin<{ pid: number }[]>`
      select pid from pg_stat_activity where query = 'select pg_sleep(30)' and datname = current_database()`;
    if (row) return row.pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a transaction whose connection is reset (ECONNRESET) between two statements", () => {
  // A backend ended while its session sits idle in transaction (terminate-backends) closes the socket with a reset,
  // so the connection's close carries a bare `read ECONNRESET`, not a statement's error. The scope's refusal of the
  // next statement must carry the mark that makes it the database's, or it is not taken for one (a 500 "unhandled
  // error" in creates; a webhook attempt's outcome not retried, and the event POSTed again after the lease).
  // A proxy between the pool and PostgreSQL resets the client's socket.
  let proxy: Server;
  let single: Awaited<ReturnType<typeof openPostgres>>;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    const target = new URL(cluster.url);
    proxy = createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(client);
      client.on("close", () => sockets.delete(client));
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const url = new URL(cluster.url);
    url.port = String((proxy.address() as AddressInfo).port);
    single = await openPostgres(url.toString(), 1);
  });
  afterAll(async () => {
    await single?.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it("refuses the next statement as a database outage (503), and stores nothing", async () => {
    await admin`truncate notes`;
    let inFlight: unknown = null;
    const failed = await within(
      20_000,
      "the transaction",
      single.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into notes (body) values ('first')`);
          // A statement in flight when the socket is reset fails with the bare socket error (its query attached);
          // the body goes on (as a body awaiting several statements at once does) and its next one is refused.
          const sleeping = tx.execute(sql`select pg_sleep(30)`).catch((error: unknown) => (inFlight = error));
          await within(
            10_000,
            "the statement to start",
            (async () => {
              for (;;) {
                const [row] = await admin<{ n: number }[]>`
                  select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep(30)%' and state = 'active'`;
                if (row!.n > 0) return;
                await new Promise((resolve) => setImmediate(resolve));
              }
            })(),
          );
          for (const s of sockets) s.resetAndDestroy();
          await sleeping;
          await tx.execute(sql`insert into notes (body) values ('second')`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        ),
    );
    expect((inFlight as { cause?: { code?: string } } | null)?.cause?.code).toBe("ECONNRESET");
    expect(isDatabaseUnavailable(inFlight)).toBe(true);
    expect(failed).not.toBeNull();
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(errorResponse(failed).status).toBe(503);
    expect(await admin`select body from notes`).toEqual([]);
  }, 60_000);
});
