import { json } from "@/server/http/handler";
import { parseQuery } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import { EVENTS_ARRAY_PARAMS, EVENTS_PARAMS, listEvents, listEventsQuery } from "@/server/services/events/list-events";

export const GET = withApiKey(
  "events:read",
  async ({ url, db, principal }) =>
    json(await listEvents(db, principal.accountId, parseQuery(listEventsQuery, url, EVENTS_ARRAY_PARAMS))),
  { query: EVENTS_PARAMS },
);
