import { asc } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts } from "@/db/schema";
import { AppError } from "@/server/errors";
import type { Actor } from "../actor";
import type { AccountChoice } from "./list-my-accounts";

/** Every account, for staff who support partners: staff act on any account with the staff role. */
export async function listAllAccounts(db: Executor, actor: Actor): Promise<AccountChoice[]> {
  if (!actor.isStaff) throw new AppError("forbidden", "Only staff can list every account.");
  const rows = await db.select({ id: accounts.id, name: accounts.name }).from(accounts).orderBy(asc(accounts.name), asc(accounts.id));
  return rows.map((row) => ({ ...row, role: "staff" as const }));
}
