import { readFileSync } from "node:fs";
import path from "node:path";
import { getDb, queryRows, type Executor } from "@/db/client";
import { migrationsFolder } from "@/db/migrate";
import { stoppingSince } from "./stopping";

export type Readiness = { ready: true } | { ready: false; reason: string };

/** The migrations this build carries, by their journal (what `drizzle-kit generate` wrote). */
function expectedMigrations(): { count: number; last: number } {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return { count: journal.entries.length, last: Math.max(...journal.entries.map((e) => e.when)) };
}

/**
 * Ready to serve: the process is not stopping, the database answers within two seconds and every migration of this
 * build is applied (an instance of a newer build that started before its migrations ran, or one pointed at an empty
 * database, is not). A stopping process is not ready from the moment it is asked to stop, without asking the
 * database: it still answers while it drains, and the load balancer should send its requests elsewhere.
 */
export async function checkReadiness(database?: Executor): Promise<Readiness> {
  if (stoppingSince()) return { ready: false, reason: "stopping" };
  let timer: NodeJS.Timeout | undefined;
  try {
    const db = database ?? (await getDb());
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), 2000);
    });
    const [applied] = await Promise.race([
      queryRows<{ count: number; last: string | null }>(
        db,
        `select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
        [],
      ),
      timeout,
    ]);
    const expected = expectedMigrations();
    if (!applied || applied.count < expected.count || Number(applied.last ?? 0) < expected.last)
      return {
        ready: false,
        reason: `migrations pending: ${applied?.count ?? 0} of ${expected.count} applied`,
      };
    return { ready: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ready: false,
      reason: /__drizzle_migrations|schema "drizzle"/.test(message)
        ? "migrations pending: none applied"
        : `the database does not answer (${message === "timed out" ? "no answer within 2 s" : "connection failed"})`,
    };
  } finally {
    clearTimeout(timer);
  }
}
