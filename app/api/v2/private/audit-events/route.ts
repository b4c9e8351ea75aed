import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listAuditEventsOp } from "@/server/operations/audit-events";
import { listAuditEvents } from "@/server/services/audit/list-audit-events";
import { accountIdOrDefault } from "@/server/services/authorization";

export const GET = route(listAuditEventsOp, async ({ query, db, actor }) =>
  json(await listAuditEvents(db, actor, await accountIdOrDefault(db, actor, query.accountId), query)),
);
