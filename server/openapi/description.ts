import { MAX_BATCH } from "@/server/services/shipping-orders/order-batch";
import { REQUEST_COSTS } from "@/server/services/rate-limits/request-costs";
import { MAX_LABELS } from "@/server/services/labels/render-shipping-labels";

/** `info.description`: the conventions every operation shares, and the decisions where the contract is silent. */
export const API_DESCRIPTION = `
Create, validate, track and print shipping orders with the platform's couriers, and manage the integration (API keys, order sources, courier profiles).
All paths are under \`/api/v2\` except the health check. Request fields of orders are PascalCase (as e-shops send them); every response field is camelCase.

## Authentication
- **Shipping-order API** (everything outside \`/private\` and \`/auth\`): an API key, as \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\`.
  Missing, unknown or revoked → 401 with \`WWW-Authenticate: Bearer\`. A key lacking the operation's permission → 403. Permissions:
  \`shipping-orders:read\`, \`shipping-orders:write\`, \`shipping-orders:validate\`, \`labels:read\`, \`configurations:read\`, \`events:read\`, \`statistics:read\`; a new key has all of them.
  Revocation takes effect on the next request.
- **Private API** (\`/private/...\`): a dashboard user's access token from \`POST /api/v2/auth/token\`, as \`Authorization: Bearer <accessToken>\`.
  An API key is not an access token (401). Members of an account can read its keys, sources and profiles; only owners (and staff users) change them (403).

## Errors
Every error is \`application/problem+json\` (RFC 9457): \`{ type, title, status, detail, errors? }\`, where \`errors: [{ field, message }]\` names each field or
parameter at fault. The one exception: create's validation failures answer 400 with the validation response (\`application/json\`), as validate would.
Ids are UUIDs; an id that is malformed or belongs to another account answers 404, never 403 or 500. Bodies over 1 MiB → 413 (refused while they arrive,
whatever \`Content-Length\` says), malformed JSON → 400, an unsupported Content-Type → 415. An unreachable database → 503 with \`Retry-After\`.

## Time
UTC without a zone suffix. Shipping orders and tracking: \`yyyy-MM-ddTHH:mm:ss\`. API keys (\`created\`, \`lastUsed\`) and audit events:
\`yyyy-MM-ddTHH:mm:ss.fff\`. Each time field's schema carries the pattern of its format.

## Pagination
Paged lists answer \`{ page, pageSize, totalPages, nextPage, previousPage, itemsCount, items }\`, newest first. \`page\` ≥ 1 (default 1), \`pageSize\` 1..50
(default 20); out of range → 400. \`totalPages\` is 0 when nothing matches; \`nextPage\` and \`previousPage\` are booleans: whether a next (previous)
page exists.

## Query parameters
Each operation takes the query parameters it lists, and no others: an unknown one (a misspelt filter such as \`?referenceSourc=shop\`) → 400 naming it.
Array parameters take repeated keys (\`?ids=a&ids=b\`) and comma-separated values (\`?ids=a,b\`) alike (\`style: form\`, \`explode: true\`; their schema
also allows the comma form as one string). Any other parameter given twice → 400.

## Paths
A path that is not valid percent-encoding → 400 problem; a path under \`/api/v2\` that no operation serves → 404 problem. Every answer, these
included, carries \`X-Request-Id\`.

## Limits
At most ${MAX_BATCH} orders per request and ${MAX_LABELS} shipping numbers per labels request (more → 400).
Each API key has a rate limit, \`rateLimitPerMinute\` (default 600), and all of an account's keys together have one more, the operator's
\`ACCOUNT_RATE_LIMIT_PER_MINUTE\` (default 6,000), whatever each key allows. Past either → 429 with \`Retry-After\` (seconds).
A request counts by the work it asks for: each order of a validate or create batch is one request, each label of \`GET /labels\` one, a statistics
question one per started ${REQUEST_COSTS.statisticsDays} days of its period (366 days: 12), an event feed read one per started ${REQUEST_COSTS.events}
events of its \`limit\` (the default 50: 2); anything else one.
Every shipping-API answer after authentication carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds) of the
limit closest to exhaustion (the key's or the account's).
Validation results and refused attempts are kept 90 days, as the platform read the order (unknown fields are not stored); stored
\`Idempotency-Key\` answers 24 hours.
\`POST /auth/token\` is throttled per email and per client address (an IPv6 client per /64; 429). The address is the connection's peer, or behind the operator's own proxies the right-most \`X-Forwarded-For\` hop that is not one of them: entries a client writes never count.

## Decisions where the contract is silent
- Problem \`type\`: a relative URI reference (RFC 9457 §3.1.1), \`/problems/<code>\` (e.g. \`/problems/not-found\`, \`/problems/courier-cannot-cancel\`), resolved against the request's URL: each names a page of this site that explains when the problem happens and what to do. A problem that is no more than its status has \`about:blank\`.
- Pickup points: a courier that keeps no pickup-point directory (\`sandbox\`) answers 404 on both pickup-point operations, like an unknown
  courier, rather than an empty list. A publishable key (\`svc_pk_…\`) is refused (403) on a request without an \`Origin\` header, except the
  checkout widget's own same-origin dialog page; its \`allowedOrigins\` are exact origins, \`https\` or plain \`http\` for localhost only.
- \`itemsCount\` is the number of items matching across all pages, not the count on the page.
- Private \`GET\`s take \`accountId\` optionally when the user belongs to exactly one account; with several it is required (400).
- \`createdFrom\`/\`createdTo\` accept \`yyyy-MM-ddTHH:mm:ss\`, optionally \`.fff\`, also \`yyyy-MM-ddTHH:mm\` and the date alone \`yyyy-MM-dd\`, with an
  optional trailing \`Z\`; both bounds are inclusive at the precision given (\`createdTo=2026-11-21\` covers the whole day). An unknown \`courier\` in
  the list filter → 400, like any malformed filter.
- An empty batch → 400.
- In orders, \`Recipient.Country\` and \`CodCurrency\` are upper-cased; \`null\` in any optional field (numbers too) means absent, and optional
  strings that are empty or blank count as absent.
- \`Recipient.Phone\`: 4 to 17 digits, spaces, hyphens and parentheses between them, \`+\` only first. With \`+\` it is a number of any country,
  kept whatever \`Recipient.Country\` is; without it, it is read as dialled in \`Recipient.Country\`: its trunk prefix (SK \`0912 345 678\`), \`00\`
  (or the country's other international prefix: \`00420 777 123 456\` for SK is a Czech number) and a leading country code (\`420777123456\`
  for CZ) are understood. Valid means valid in the numbering plan of libphonenumber-js's full metadata (the version pinned in
  \`package.json\`), of any type (mobile, fixed line, …): a Czech \`777 123 456\` sent for an SK recipient is an ERROR, it is not a Slovak number.
  A national number with an invalid \`Recipient.Country\` is an ERROR at both fields. Every message is \`INVALID_FORMAT\` at
  \`Recipient.Phone\`. The E.164 form is what is stored, answered, printed on labels and sent to Packeta and PPL; validation results and
  refused attempts keep the number as it was sent.
- A returned order carries every field that was sent, \`null\` where it was not (\`pickupPoint\` also when the service does not use one).
- Every account starts with a default \`sandbox\` courier profile, so \`sandbox\` works without \`?profile=\` from the first request. Without
  \`?profile=\` when the account has no default profile for the courier → 404 naming \`profile\`.
- \`/couriers\`: \`cod\` is a boolean; \`codCurrencies\` lists the currencies the courier collects.
- \`labelUrl\` is an absolute URL on the platform's configured origin (\`PUBLIC_URL\`), never on a request's \`Host\` or \`X-Forwarded-Host\`.
- \`PATCH /private/api-keys/{id}\` accepts \`application/json\` and \`application/merge-patch+json\` alike.
- API keys carry \`rateLimitPerMinute\` (1..100000, default 600), shown in lists and settable on create and PATCH.
- A deleted order is cancelled with the courier, its status becomes \`CANCELLED\`, and its id answers 404 from then on; if the courier cannot cancel,
  nothing changes and the answer is 503.
- \`failed[].code\` of create is \`COURIER_REJECTED\`, \`COURIER_AUTH_FAILED\`, \`COURIER_TIMEOUT\` or \`COURIER_UNAVAILABLE\`; \`failed[]\` items are
  \`{ referenceNumber, code, message }\` plus \`outcomeUnknown: true\` when the request reached the courier and its answer never came (a timeout
  after sending, a connection cut mid-call, a PPL batch still in process at the timeout): the courier may have registered it. The same flag is on
  the order's refused attempt and its \`shipping_order.courier_rejected\` event. The platform keeps the attempt open and asks the courier within 5
  minutes (PPL: the batch, else a lookup by reference): it adopts the shipment as the order (a \`shipping_order.created\` event follows) or, when the
  reference was created again meanwhile, cancels it; it never touches a shipment an order holds. Packeta has no lookup by reference: its unknown
  outcomes stay listed as "outcome unknown" for the partner to check in Packeta. A refusal that names a field ends its message with it in the
  request's terms, e.g. \`(Recipient.Zip)\`.

## Real couriers (Packeta, PPL): decisions where the contract is silent
- Where the platform calls them is the operator's choice (\`COURIER_PACKETA_URL\`, \`COURIER_PPL_URL\`, \`COURIER_PPL_TEST_URL\`), never a profile's.
  No redirect of theirs is followed (a 3xx is \`COURIER_UNAVAILABLE\`) and at most 10 MiB of an answer is read, so credentials go only there.
- Every create call to a real courier is recorded before it is made; the orders are stored in a short transaction after the answer. A process
  that dies in between leaves an attempt the recovery job (every minute, for attempts older than twice the timeout + 60 s) finishes: the shipment
  the courier registered (the answer recorded the moment it arrived, else PPL's lookup by reference) is adopted as the order, with its
  \`shipping_order.created\` event, unless the partner has since created that order again, in which case it is cancelled at the courier.
  Packeta has no lookup by the e-shop's number: an attempt that died before its answer was recorded cannot be found there (logged).
- \`DELETE\`: a courier that no longer allows the cancel → 409 \`COURIER_CANNOT_CANCEL\`; one that cannot be reached → 503; a retried DELETE of a
  shipment the courier already cancelled succeeds. A replaced order's shipment is
  cancelled after the replacement commits, with its own profile's credentials; a courier refusing it is logged (the replacement stands).
- Labels of a real courier are fetched once per format and kept (\`label_files\`) only when they are what was asked (ZPL, or a PDF; PPL's A4
  pages A4); a failure is 502 \`COURIER_UNAVAILABLE\` and nothing is kept.
- Tracking of a real courier is polled by the worker only (never on a read): one minute after the create, then every quarter of the time the
  shipment has sat in its state, between 1 and 30 minutes while it moves and up to 2 hours before it is handed over; a failed poll is retried
  after 1 minute, doubling to an hour. Final states (DELIVERED, RETURNED, CANCELLED) stop it. Each courier has its own job queue. An event the
  courier reports again is not stored twice; the order takes the status of the courier's newest event.
- Packeta: \`Recipient.Name\` is split at its first space (\`name\` the first word, \`surname\` the rest; one word is the \`name\`, with an empty
  \`surname\`); for \`HOME\`, \`Recipient.Street\` is split into \`street\` + \`houseNumber\` at the house number that ends it before any comma ("Hlavní 12, byt 3" → "Hlavní, byt 3" + "12"; "Náměstí Míru 1234/5 A" → "Náměstí Míru" + "1234/5A"); weights are sent
  rounded to the gram; a parcel's three dimensions go as \`size\` in mm; \`value\` = \`InsurancePrice\`, else \`CodPrice\`, in the order's COD currency
  (CZK without COD), shared across a multi-parcel order's packets (adding up to it), COD on its first packet only (the recipient pays once); every
  packet carries the order's \`ReferenceNumber\` as \`number\`; one packet is \`createPacket\`, several \`createPackets\` (up to 100 packets a call, 8 calls in flight per
  profile); an order with any packet refused fails \`COURIER_REJECTED\` and its other packets are cancelled; Packeta's zone-less times are Prague
  time; tracking reads \`packetStatus\` of every packet (the order is DELIVERED when every packet is, RETURNED when any is, else as its least
  advanced packet); the credentials check is \`senderGetReturnRouting\` of the profile's \`sender\`.
- PPL: every order is sent as a shipment set (PPL's shipment has no weight of its own), its shipping numbers the set's in parcel order;
  \`Recipient.Company\` → \`name\` with the person in \`contact\` (no company: the person is \`name\`); the zip is sent without spaces; \`ReferenceNumber\`
  is also a \`CUST\` external number (PPL's lookup by reference); \`InsurancePrice\` (CZK) is sent as PPL's additional insurance in CZK only above
  the cover the product includes (PRIVATE, BUSINESS 50,000; PARCELSHOP 20,000; INTERNATIONAL 100,000 CZK); PRIVATE, BUSINESS and PARCELSHOP
  deliver in CZ, INTERNATIONAL (one parcel) to 24 EU countries; COD only in CZ (CZK), SK (EUR, CZK), PL (PLN), HU (HUF), RO (RON) (PPL's country
  code list), within PPL's limits (CZK ≤ 100,000 domestic, ≤ 80,000 international; EUR ≤ 3,000; PLN ≤ 6,500; HUF ≤ 600,000; RON ≤ 7,300); no
  \`depot\` is sent (PPL: "do not use"); up to 100 orders per batch, the
  batch read from 100 ms doubling to 1 s; a 400 for the whole batch refuses the orders it names with PPL's words and the others as "refused for
  another order in it"; the access token is cached until 60 s before it expires and fetched again once on a 401; tracking asks for up to 50
  numbers per call; the credentials check fetches a new token. A shipment adopted by recovery has no PPL batch, so its label cannot be fetched.

## Events and webhooks: decisions where the contract is silent
- Keys made before the feed existed got \`events:read\` if they could read shipping orders (the feed shows the same orders).
- \`shipping_order.cancelled\` of a replaced order carries it with status \`CANCELLED\` (a replaced order's shipment is cancelled with the courier), and comes
  just before the successor's \`shipping_order.created\` (same transaction). \`courier_rejected\` is also written for \`COURIER_UNAVAILABLE\`.
- When one look at the courier finds several tracking steps at once (e.g. after the worker was down), one \`status_changed\` event carries the latest
  status (and \`previousStatus\` the one before the look); the order's \`shipmentTracking.events\` lists every step.
- Event \`created\` is the time of the transaction that made the change, \`yyyy-MM-ddTHH:mm:ss.fff\` UTC; the order inside keeps its own formats.
- \`status_changed\` events written by the tracking worker (no request) carry \`labelUrl\` on the same origin (\`PUBLIC_URL\`).
- Webhook endpoints: \`eventTypes\` omitted = every order event type, listed in full in answers; \`sources\` omitted or null = every pair, shown as null; an
  empty \`eventTypes\` or \`sources\` list → 400. Endpoints also show \`disabledReason\`, \`lastSuccess\` and \`failureStreak\`. \`description\` ≤ 500 characters,
  \`url\` ≤ 2048 characters with no credentials.
- A disabled endpoint gets no new deliveries; attempts due while it is disabled are marked \`failed\` (resend them after enabling). \`test\` reaches
  disabled endpoints too. A resend starts a fresh retry schedule; \`attempts\` keeps counting.
- Deliveries carry \`lastError\` (why an attempt got no answer). At most 4 KiB of a receiver's answer is read; only the status counts.
- The pull feed's order follows commits, not \`created\`: an event takes its place once its transaction has committed, after every event already
  in the feed (events of one transaction together, in the order written). It is the same order for every reader of the account.
- Fairness: a worker runs at most 16 attempts at once for one account (\`WEBHOOK_ACCOUNT_CONCURRENCY\`) and 8 for one endpoint, and takes accounts in
  turn, so another account's events never queue behind a flood. An endpoint is judged slow only by timeouts: after an attempt with no answer
  within 10 s it gets one attempt at a time until one is answered; an endpoint answering slowly but in time keeps its 8.
- A process that is killed (not stopped) during an attempt cannot know whether its POST arrived: once the attempt's lease ends (the timeout + 15 s)
  it counts as made and failed (\`lastError\` says the outcome is unknown), and the next attempt comes on the retry schedule, never at once.
`.trim();
