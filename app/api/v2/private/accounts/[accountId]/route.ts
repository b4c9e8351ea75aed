import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { getAccountOp, updateAccountOp } from "@/server/operations/statistics";
import { getAccountSettings, toAccountView, updateAccountSettings } from "@/server/services/accounts/account-settings";

export const GET = route(getAccountOp, async ({ params, db, actor }) =>
  json(toAccountView(await getAccountSettings(db, actor, params.accountId))),
);

export const PATCH = route(updateAccountOp, async ({ body, params, db, actor, ip }) =>
  json(toAccountView(await updateAccountSettings(db, actor, params.accountId, body, { ip }))),
);
