import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { getDb, rowsOf } from "./client";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => parseInt(id.replaceAll("-", "").slice(0, 12), 16);

describe("primary keys (migration 0009)", () => {
  it("are RFC 9562 version-7 UUIDs carrying the time of their making, from the database as from the app", async () => {
    const db = await getDb();
    const before = Date.now();
    const [{ id }] = rowsOf<{ id: string }>(await db.execute(sql`select uuid_generate_v7()::text as id`));
    const fromApp = uuidv7();
    const after = Date.now();
    for (const made of [id!, fromApp]) {
      expect(made).toMatch(V7);
      // One clock for both here; a minute either way allows for the database's clock reading.
      expect(Math.abs(millisOf(made) - (before + after) / 2)).toBeLessThan(60_000);
    }
  });

  it("keeps 74 random bits: ids made in the same millisecond still differ", async () => {
    const db = await getDb();
    const ids = rowsOf<{ id: string }>(
      await db.execute(sql`select uuid_generate_v7()::text as id from generate_series(1, 1000)`),
    ).map((r) => r.id);
    expect(new Set(ids).size).toBe(1000);
  });
});
