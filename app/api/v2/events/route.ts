import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listEventsOp } from "@/server/operations/events";
import { listEvents } from "@/server/services/events/list-events";
import { eventsCost } from "@/server/services/rate-limits/request-costs";

export const GET = route(listEventsOp, async ({ query, db, principal, rateLimit }) => {
  // Weighted by the page asked for: each read numbers the account's new events and reads up to `limit` orders.
  await rateLimit.take(eventsCost(query.limit) - 1);
  return json(await listEvents(db, principal.accountId, query));
});
