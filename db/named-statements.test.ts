import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { openPostgres, rowsOf } from "./client";

/**
 * The app's pool names its parameterised statements (prepared once per connection), except a statement that
 * matches a text pattern sent as a parameter: a generic plan cannot know whether `like $1` finds one row or all of
 * them, and the pickup points' text search read the whole directory for a word found nowhere (db/client.ts).
 */
it("names parameterised statements, but not one matching a pattern parameter", async () => {
  const handle = await openPostgres(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", 1);
  try {
    const { db } = handle;
    await db.execute(sql`select ${41}::int + 1 as answer`);
    await db.execute(sql`select relname from pg_class where relname like ${"pg_%"} limit 1`);
    await db.execute(sql`select relname from pg_class where relname like 'pg_%' and relkind = ${"r"} limit 1`);
    const named = rowsOf<{ statement: string }>(
      await db.execute(sql`select statement from pg_prepared_statements where not from_sql`),
    ).map((r) => r.statement);
    expect(named).toContainEqual(expect.stringContaining("+ 1 as answer"));
    expect(named).toContainEqual(expect.stringContaining("like 'pg_%' and relkind"));
    expect(named.filter((s) => s.includes("like $"))).toEqual([]);
  } finally {
    await handle.close();
  }
});
