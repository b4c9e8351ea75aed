import { closeDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { env } from "@/server/env";

await migrate();
await closeDb();
console.log(
  `Migrations applied (${process.env.DATABASE_URL ? "PostgreSQL at DATABASE_URL" : `embedded PGlite in ${env().DATA_DIR}/`}).`,
);
