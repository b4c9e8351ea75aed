/**
 * A process with the app's postgres.js pool whose first connection's type fetch is cut by the test's proxy
 * (db/type-fetch-rejections.test.ts): `node --import tsx test/children/type-fetch-cut.ts <url> [other]`. A
 * transaction opens the pool's first connection (postgres.js leaves its reservation unanswered: refused after the
 * wait's bound, as database unavailable), then a statement must run. With `other`, an unrelated rejection nobody handles must still end the process.
 */
import { sql } from "drizzle-orm";
import { openPostgres } from "@/db/client";
import { isDatabaseUnavailable } from "@/db/connection-errors";

const [url, mode] = process.argv.slice(2);
const handle = await openPostgres(url!, 1, { reserveTimeoutMs: 2000 });
if (mode === "other") void Promise.reject(new Error("an unrelated rejection nobody handles"));
const bounded = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer in 3 s")), 3000))]);
try {
  await bounded(handle.db.transaction(async (tx) => tx.execute(sql`select 1 as one`)));
  console.log("transaction: ran");
} catch (error) {
  console.log(
    `transaction: ${isDatabaseUnavailable(error) ? "refused as database unavailable" : "failed"}: ${String(error)}`,
  );
}
for (let i = 0; ; i++) {
  try {
    await bounded(handle.db.execute(sql`select 1 as one`));
    console.log("statement: ran");
    break;
  } catch (error) {
    if (i >= 5) throw error;
  }
}
await handle.close();
process.exit(0);
