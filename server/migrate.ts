import { applyMigrations } from "@/db/migrate";
import { prepareJobs } from "@/server/jobs/boss";
import { resealStoredSecrets } from "@/server/secrets/reseal-stored-secrets";

/**
 * What every process runs before it serves (`npm run db:migrate`, start, dev, the worker, the admin CLI): the
 * committed migrations, pg-boss's schema and the app's queues, and the secrets stored before they were sealed, or
 * under SECRETS_KEY_PREVIOUS, sealed under SECRETS_KEY; on PostgreSQL all under one advisory lock (db/migrate.ts).
 */
export async function migrate(): Promise<void> {
  await applyMigrations(async (db) => {
    await prepareJobs(db);
    await resealStoredSecrets(db);
  });
}
