import postgres from "postgres";
import { e2eEnvironment } from "./environment";

/** Drops the run's database; `with (force)` ends the connections the server may still hold. */
export default async function globalTeardown() {
  const { serverUrl, databaseName } = e2eEnvironment();
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    // shutdown.spec.ts drops its own; this covers a run that was stopped before it could.
    await admin.unsafe(`drop database if exists "${databaseName}_stop" with (force)`);
  } finally {
    await admin.end();
  }
}
