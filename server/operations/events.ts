import { operation } from "@/server/http/operation";
import { parseQuery } from "@/server/http/query";
import { EventFeed } from "@/server/openapi/components";
import { createdEvent, EVENT_ID, statusChangedEvent } from "@/server/openapi/examples";
import { EVENTS_ARRAY_PARAMS, listEventsQuery, unknownCursor } from "@/server/services/events/list-events";
import { answer, describeParams, thrown } from "./shared";

/** The service's query schema, described: the route parses with it. */
const eventsQuery = describeParams(
  listEventsQuery.extend({
    limit: listEventsQuery.shape.limit.meta({ type: "integer", minimum: 1, maximum: 100, default: 50 }),
  }),
  {
    after: ["The id of an event: only events after it. Omitted: from the oldest event kept.", EVENT_ID],
    types: ["Only these types."],
    referenceSource: ["Only events of this ReferenceSource (exact, case included).", "shoptet"],
    sourceIdentifier: ["Only events of this SourceIdentifier (exact).", "eshop-1"],
    limit: ["Events per page, 1..100 (default 50). Out of range → 400."],
  },
);

export const listEventsOp = operation({
  method: "get",
  path: "/api/v2/events",
  operationId: "listEvents",
  tag: "Events",
  summary: "Read the event feed",
  description:
    "The account's order events, oldest first: `shipping_order.created` (a replacement too), `shipping_order.status_changed` (tracking moved), " +
    "`shipping_order.cancelled` (`reason` `deleted` or `replaced`) and `shipping_order.courier_rejected`. Each is written in the transaction of the change " +
    "it records and carries the order exactly as `GET /shipping-orders/{id}` returned it then. Start without `after`, then pass the id of the last event " +
    "you processed as `after`; `next` is that id when more events are already waiting, else null (poll again later with the last id you have). " +
    "Following `next` you get every committed event of the account exactly once, however long the transaction that wrote it ran: an event takes its " +
    "place in the feed when its transaction commits, after every event already shown, so none is ever skipped for committing late and none comes " +
    "twice. A read never waits for a transaction still running, of any kind or age, so it answers at once. The id of an event a webhook delivered " +
    "is a valid `after` too. " +
    "Events are kept 30 days. An `after` whose event retention removed still works when it was the last event removed for the account (you had read " +
    "everything before it: the feed continues after it); if later events were removed too, or the id is not an event of the account → 400 (read " +
    "again without `after`).",
  auth: { apiKey: "events:read" },
  query: eventsQuery,
  arrays: EVENTS_ARRAY_PARAMS,
  responses: {
    200: answer("Events, oldest first.", EventFeed, {
      more: ["A page with more to come", { items: [createdEvent, statusChangedEvent], next: EVENT_ID }],
      end: ["Read to the end", { items: [], next: null }],
    }),
  },
  errors: {
    400: {
      description: "An unknown `after`, a malformed or unknown parameter.",
      examples: {
        after: ["Unknown cursor", unknownCursor()],
        limit: [
          "limit out of range",
          thrown(() => parseQuery(eventsQuery, new URL("http://x/?limit=0"), EVENTS_ARRAY_PARAMS)),
        ],
      },
    },
  },
});

export const operations = [listEventsOp];
