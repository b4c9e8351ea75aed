import { lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { events } from "@/db/schema";

/** The contract keeps events at least 30 days; older ones go, with their delivery log. */
export const EVENT_RETENTION_DAYS = 30;

export async function purgeExpiredEvents(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  const removed = await db.delete(events).where(lt(events.createdAt, cutoff)).returning({ id: events.id });
  return removed.length;
}
