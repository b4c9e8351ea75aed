import { json } from "@/server/http/handler";
import { parseQuery, rejectUnknownQuery } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import { EVENTS_ARRAY_PARAMS, EVENTS_PARAMS, listEvents, listEventsQuery } from "@/server/services/events/list-events";

export const GET = withApiKey("events:read", async ({ url, db, principal }) => {
  rejectUnknownQuery(url, EVENTS_PARAMS);
  return json(await listEvents(db, principal.accountId, parseQuery(listEventsQuery, url, EVENTS_ARRAY_PARAMS)));
});
