/**
 * The extensions every PGlite of the project is opened with. PGlite loads an extension only when it is passed to
 * `PGlite.create`, also when the data directory already has it created: db/client.ts, the test snapshot
 * (test/global-setup.ts) and any test that migrates its own PGlite use this.
 * - pg_trgm: the trigram index of pickup-point text search (migration 0022).
 */
export async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}
