import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { seedDemo, signInBanner } from "@/db/seed";

await migrate();
const { created } = await seedDemo(await getDb());
await closeDb();
console.log(created ? "Demo data created." : "Demo data already present.");
console.log(signInBanner());
