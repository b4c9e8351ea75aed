import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";

/** True when the database answers a trivial query within two seconds. */
export async function checkHealth(): Promise<boolean> {
  try {
    const db = await getDb();
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("health check timed out")), 2000).unref(),
    );
    await Promise.race([db.execute(sql`select 1`), timeout]);
    return true;
  } catch {
    return false;
  }
}
