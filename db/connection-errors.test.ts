import { connect } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { refusedPort } from "@/test/helpers";
import { isDatabaseUnavailable, retryWhileUnavailable } from "./connection-errors";
import { reservedTransactions } from "./reserved-transactions";

const failure = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );

describe("isDatabaseUnavailable", () => {
  it("is false for a fetch whose connection was refused, and for any other socket's error", async () => {
    const port = await refusedPort();
    const fetched = await failure(fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST" }));
    expect((fetched as Error & { cause: { code: string } }).cause.code).toBe("ECONNREFUSED");
    expect(isDatabaseUnavailable(fetched)).toBe(false);
    const socket = await new Promise<Error>((resolve) => connect(port, "127.0.0.1").once("error", resolve));
    expect((socket as Error & { code: string }).code).toBe("ECONNREFUSED");
    expect(isDatabaseUnavailable(socket)).toBe(false);
    expect(isDatabaseUnavailable({ code: "ECONNRESET" })).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it("is true for postgres.js's queries and transactions that cannot reach PostgreSQL, also through Drizzle", async () => {
    const url = `postgres://postgres@127.0.0.1:${await refusedPort()}/nothing`;
    const client = reservedTransactions(postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} }));
    try {
      expect(isDatabaseUnavailable(await failure(client`select 1`))).toBe(true);
      const db = drizzle({ client });
      expect(isDatabaseUnavailable(await failure(db.execute(sql`select 1`)))).toBe(true);
      expect(isDatabaseUnavailable(await failure(db.transaction((tx) => tx.execute(sql`select 1`))))).toBe(true);
    } finally {
      await client.end({ timeout: 1 });
    }
    expect(isDatabaseUnavailable(await failure(client`select 1`))).toBe(true);
  });

  it("sees through another copy of drizzle's Failed query wrapper (a production build has one per bundle)", async () => {
    // The shape of drizzle-orm's DrizzleQueryError, from a class that is not the one this module imports: what a
    // route's bundle gets from the database handle the worker's bundle made (unmatched: a 500, not a 503).
    class CopiedDrizzleQueryError extends Error {
      constructor(
        public query: string,
        public params: unknown[],
        cause: unknown,
      ) {
        super(`Failed query: ${query}\nparams: ${params.join(",")}`, { cause });
      }
    }
    const url = `postgres://postgres@127.0.0.1:${await refusedPort()}/nothing`;
    const client = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
    try {
      const driver = await failure(client`select 1`);
      expect(isDatabaseUnavailable(new CopiedDrizzleQueryError("select 1", [], driver))).toBe(true);
      const port = await refusedPort();
      const fetched = await failure(fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST" }));
      expect(isDatabaseUnavailable(new CopiedDrizzleQueryError("select 1", [], fetched))).toBe(false);
      expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: driver }))).toBe(false);
    } finally {
      await client.end({ timeout: 1 });
    }
  });

  it("is true for a closed PGlite and false for a query PostgreSQL refuses", async () => {
    const pglite = await PGlite.create();
    const syntax = await failure(pglite.query("select from where"));
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    await pglite.close();
    expect(isDatabaseUnavailable(await failure(pglite.query("select 1")))).toBe(true);
  }, 120_000);
});

describe("retryWhileUnavailable", () => {
  it("retries database-only work that failed with a bare socket error, and nothing else", async () => {
    // What postgres.js hands on for a socket reset under a reserved connection's statement: no query attached.
    const reset = () =>
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", errno: -104, syscall: "read" });
    let calls = 0;
    const result = await retryWhileUnavailable(async () => {
      calls += 1;
      if (calls < 3) throw reset();
      return "recorded";
    }, Date.now() + 10_000);
    expect(result).toBe("recorded");
    expect(calls).toBe(3);
    let refused = 0;
    await expect(
      retryWhileUnavailable(async () => {
        refused += 1;
        throw new Error("a bug, not the database");
      }, Date.now() + 10_000),
    ).rejects.toThrow("a bug");
    expect(refused).toBe(1);
  });

  it("starts the next try when one hangs, and gives up at the deadline however long a try hangs", async () => {
    let calls = 0;
    const started = Date.now();
    const result = await retryWhileUnavailable(() => {
      calls += 1;
      // The first try never settles (a connection the database ended under it); the second answers.
      return calls === 1 ? new Promise<string>(() => {}) : Promise.resolve("recorded");
    }, Date.now() + 20_000);
    expect(result).toBe("recorded");
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(15_000);
    const hanging = retryWhileUnavailable(() => new Promise<never>(() => {}), Date.now() + 1500);
    await expect(hanging).rejects.toThrow("no answer from the database");
  }, 30_000);
});
