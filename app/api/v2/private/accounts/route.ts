import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listAccountsOp } from "@/server/operations/statistics";
import { listAccountSettings } from "@/server/services/accounts/account-settings";

export const GET = route(listAccountsOp, async ({ db, actor }) => json(await listAccountSettings(db, actor)));
