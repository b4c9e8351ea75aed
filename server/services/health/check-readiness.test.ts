import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import type { Executor } from "@/db/client";
import { migrationsFolder } from "@/db/migrate";
import { checkReadiness } from "./check-readiness";
import { markStopping } from "./stopping";

describe("readiness", () => {
  it("is not ready on a database without the migrations, nor with the last one missing, and ready with all", async () => {
    const pg = await PGlite.create();
    try {
      const db = drizzle({ client: pg }) as unknown as Executor;
      expect(await checkReadiness(db)).toEqual({ ready: false, reason: "migrations pending: none applied" });
      await migrate(drizzle({ client: pg }), { migrationsFolder });
      expect(await checkReadiness(db)).toEqual({ ready: true });
      const { rows } = await pg.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
      await pg.exec(
        "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)",
      );
      expect(await checkReadiness(db)).toEqual({
        ready: false,
        reason: `migrations pending: ${rows[0]!.n - 1} of ${rows[0]!.n} applied`,
      });
    } finally {
      await pg.close();
    }
  }, 60_000);

  // Last in this file: a process that was asked to stop stays stopping.
  it("is not ready from the moment the process is asked to stop, without asking the database", async () => {
    const pg = await PGlite.create();
    try {
      await migrate(drizzle({ client: pg }), { migrationsFolder });
      const db = drizzle({ client: pg }) as unknown as Executor;
      expect(await checkReadiness(db)).toEqual({ ready: true });
      markStopping();
      await pg.close();
      expect(await checkReadiness(db)).toEqual({ ready: false, reason: "stopping" });
    } finally {
      if (!pg.closed) await pg.close();
    }
  }, 60_000);
});
