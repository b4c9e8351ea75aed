import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { courierProfiles } from "@/db/schema";
import { accountAccess, type Actor } from "../authorization";
import type { CourierProfileView } from "./schemas";
import { toCourierProfileView } from "./to-view";

export async function listCourierProfiles(
  db: Executor,
  actor: Actor,
  accountId: string,
): Promise<{ items: CourierProfileView[] }> {
  await accountAccess(db, actor, accountId);
  return { items: await listAccountCourierProfiles(db, accountId) };
}

/** An account's profiles (archived ones left out): per courier, the default first, then by name. */
export async function listAccountCourierProfiles(db: Executor, accountId: string): Promise<CourierProfileView[]> {
  const rows = await db
    .select()
    .from(courierProfiles)
    .where(and(eq(courierProfiles.accountId, accountId), isNull(courierProfiles.archivedAt)))
    .orderBy(
      asc(courierProfiles.courier),
      desc(courierProfiles.isDefault),
      asc(courierProfiles.name),
      asc(courierProfiles.createdAt),
    );
  return rows.map(toCourierProfileView);
}
