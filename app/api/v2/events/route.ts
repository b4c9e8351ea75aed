import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listEventsOp } from "@/server/operations/events";
import { listEvents } from "@/server/services/events/list-events";

export const GET = route(listEventsOp, async ({ query, db, principal }) =>
  json(await listEvents(db, principal.accountId, query)),
);
