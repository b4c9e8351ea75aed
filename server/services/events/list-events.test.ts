import { describe, expect, it } from "vitest";
import { getDb, queryRows, type Db, type Executor } from "@/db/client";
import { createAccount } from "@/server/services/accounts/create-account";
import { listEvents, type EventPage } from "./list-events";
import { recordEvents } from "./record-events";
import { SEQUENCER_LOCK_CLASS } from "./sequence-events";

/**
 * The pull feed's guarantee (api-v2.md "Pull"): a reader following `next` gets every committed event of its
 * account exactly once, however long the transaction that wrote it ran, and a read never waits for a transaction
 * still running. Concurrent transactions need a server: those cases run with DATABASE_URL (CI also runs them
 * through PgBouncer in transaction mode); the embedded database has one connection.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);

const draft = (ref: string) => ({
  type: "shipping_order.courier_rejected",
  referenceSource: "api",
  sourceIdentifier: "default",
  data: { referenceNumber: ref, code: "COURIER_REJECTED" },
});

const write = async (db: Db, accountId: string, ...refs: string[]) =>
  db.transaction((tx) => recordEvents(tx, accountId, refs.map(draft)));

const refOf = (page: EventPage) => page.items.map((e) => (e.data as { referenceNumber: string }).referenceNumber);

/** Every event after `after`, following `next` page by page. */
async function readAll(db: Db, accountId: string, after?: string, limit = 100): Promise<EventPage["items"]> {
  const all: EventPage["items"] = [];
  for (;;) {
    const page = await listEvents(db, accountId, { after, limit });
    all.push(...page.items);
    after = page.items.at(-1)?.id ?? after;
    if (!page.next) return all;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Seconds since the transaction of `tx` began (`now()` is its start). */
const ageOf = async (tx: Executor) =>
  Number(
    (await queryRows<{ age: string }>(tx, `select extract(epoch from clock_timestamp() - now())::text as age`, []))[0]!
      .age,
  );

/** A transaction that writes events, then stays open until `commit()` is called. */
function openWriter(db: Db, accountId: string, refs: string[]) {
  let commit!: () => void;
  const gate = new Promise<void>((resolve) => (commit = resolve));
  let wrote!: (ids: string[]) => void;
  const written = new Promise<string[]>((resolve) => (wrote = resolve));
  let tx!: Executor;
  const done = db.transaction(async (t) => {
    tx = t;
    wrote(await recordEvents(t, accountId, refs.map(draft)));
    await gate;
  });
  done.catch(() => {});
  return { written, done, commit, age: () => ageOf(tx) };
}

describe("the pull feed", () => {
  it("pages the account's events in order, a cursor continues, and an unknown or foreign cursor is 400", async () => {
    const db = await getDb();
    const { accountId } = await createAccount(db, "Feed");
    const { accountId: other } = await createAccount(db, "Other");
    await write(db, accountId, "A-1", "A-2");
    const [foreign] = await write(db, other, "O-1");
    await write(db, accountId, "A-3");
    const first = await listEvents(db, accountId, { limit: 2 });
    expect(refOf(first)).toEqual(["A-1", "A-2"]);
    expect(first.next).toBe(first.items[1]!.id);
    const rest = await listEvents(db, accountId, { after: first.next!, limit: 2 });
    expect(refOf(rest)).toEqual(["A-3"]);
    expect(rest.next).toBeNull();
    await expect(listEvents(db, accountId, { after: foreign!, limit: 10 })).rejects.toMatchObject({
      code: "bad_request",
    });
    await expect(listEvents(db, accountId, { after: crypto.randomUUID(), limit: 10 })).rejects.toMatchObject({
      code: "bad_request",
    });
  });

  it("takes the id of an event not yet numbered (as a webhook carries it) as a cursor", async () => {
    const db = await getDb();
    const { accountId } = await createAccount(db, "Webhook cursor");
    const [, pushed] = await write(db, accountId, "W-1", "W-2");
    await write(db, accountId, "W-3");
    // No read has numbered anything yet: the partner knows W-2 only from its webhook.
    const [row] = await queryRows<{ unnumbered: number }>(
      db,
      `select count(*)::int as unnumbered from events where account_id = $1 and position is null`,
      [accountId],
    );
    expect(row!.unnumbered).toBe(3);
    expect(refOf(await listEvents(db, accountId, { after: pushed!, limit: 10 }))).toEqual(["W-3"]);
    expect(refOf(await listEvents(db, accountId, { limit: 10 }))).toEqual(["W-1", "W-2", "W-3"]);
  });
});

describe.runIf(onPostgres)("the pull feed beside concurrent transactions (PostgreSQL)", () => {
  it("returns the event of a transaction held open past 5 s exactly once after a cursor that moved past it", async () => {
    const db = await getDb();
    const { accountId } = await createAccount(db, "Late");
    const late = openWriter(db, accountId, ["LATE"]);
    const [lateId] = await late.written;
    // Past any 5 s horizon a feed might wait behind: age is no reason to be skipped, nor to be waited for.
    await until("the late transaction to be 6 s old", async () => (await late.age()) > 6, 60_000);
    const [e1] = await write(db, accountId, "E1");
    const started = performance.now();
    const page = await listEvents(db, accountId, { limit: 100 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(page.items.map((e) => e.id)).toEqual([e1]);
    const cursor = page.items.at(-1)!.id;
    late.commit();
    await late.done;
    const after = await readAll(db, accountId, cursor);
    expect(after.map((e) => e.id)).toEqual([lateId]);
    expect(await readAll(db, accountId, lateId)).toEqual([]);
    expect((await readAll(db, accountId)).map((e) => e.id).sort()).toEqual([e1, lateId].sort());
  }, 90_000);

  it("answers at once, with what is numbered, while another sequencer of the account holds its lock", async () => {
    const db = await getDb();
    const { accountId } = await createAccount(db, "Busy sequencer");
    const [before] = await write(db, accountId, "B-0");
    await listEvents(db, accountId, { limit: 10 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      await queryRows(tx, `select pg_advisory_xact_lock($1::int, hashtext($2::text))`, [
        SEQUENCER_LOCK_CLASS,
        accountId,
      ]);
      locked();
      await held;
    });
    try {
      await isLocked;
      const [b1] = await write(db, accountId, "B-1");
      for (const after of [undefined, before, b1]) {
        const started = performance.now();
        const page = await listEvents(db, accountId, { after, limit: 10 });
        expect(performance.now() - started).toBeLessThan(2000);
        // B-1 has no position while the lock is held: not shown yet, and as a cursor an empty page for now.
        expect(page).toEqual(
          after === undefined
            ? { items: [expect.objectContaining({ id: before })], next: null }
            : { items: [], next: null },
        );
      }
    } finally {
      release();
      await holder;
    }
    expect(refOf(await listEvents(db, accountId, { after: before, limit: 10 }))).toEqual(["B-1"]);
  }, 60_000);

  it("gives every reader every committed event exactly once, with many writers and readers at once", async () => {
    const seed = Number(process.env.FEED_SEED ?? Date.now() % 1_000_000);
    let state = seed;
    const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const db = await getDb();
    const { accountId } = await createAccount(db, "Crowd");
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    let writing = true;

    async function writer(w: number) {
      for (let t = 0; t < 12; t++) {
        const refs = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => `W${w}-${t}-${i}`);
        const abort = random() < 0.15;
        const pauses = Math.floor(random() * 4);
        let ids: string[] = [];
        try {
          await db.transaction(async (tx) => {
            ids = await recordEvents(tx, accountId, refs.map(draft));
            // Stay open a while (other writers commit meanwhile): the order of commits differs from that of writes.
            for (let p = 0; p < pauses; p++)
              await queryRows(tx, `select pg_sleep(${(random() * 0.05).toFixed(3)})`, []);
            if (abort) throw new Error("rolled back on purpose");
          });
          for (const id of ids) committed.add(id);
        } catch (error) {
          if (!abort) throw error;
          for (const id of ids) rolledBack.add(id);
        }
      }
    }

    async function reader() {
      const seen: string[] = [];
      let after: string | undefined;
      const read = async () => {
        const page = await listEvents(db, accountId, { after, limit: 1 + Math.floor(random() * 8) });
        seen.push(...page.items.map((e) => e.id));
        after = page.items.at(-1)?.id ?? after;
        return page;
      };
      while (writing) await read();
      // The writers are done: read until the end of the feed, which then holds everything committed.
      while ((await read()).next);
      return seen;
    }

    const readers = Array.from({ length: 3 }, () => reader());
    await Promise.all(Array.from({ length: 5 }, (_, w) => writer(w)));
    writing = false;
    const results = await Promise.all(readers);
    const expected = [...committed].sort();
    for (const seen of results) {
      expect(new Set(seen).size, `a duplicate (seed ${seed})`).toBe(seen.length);
      expect([...seen].sort(), `not every committed event, or more (seed ${seed})`).toEqual(expected);
    }
    expect(results[0]!.some((id) => rolledBack.has(id))).toBe(false);
    // Readers agree on one order, and so does a reader from the start.
    expect(results[1]).toEqual(results[0]);
    expect((await readAll(db, accountId)).map((e) => e.id)).toEqual(results[0]);
  }, 120_000);
});
