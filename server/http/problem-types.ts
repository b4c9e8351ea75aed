import type { CourierErrorCode } from "@/server/couriers/adapter";
import { errorTable, type AppErrorCode } from "@/server/errors";

/** What a partner reads on a problem type's page: when the platform answers it and what to do about it. */
export type ProblemTypeExplanation = { title: string; statuses: readonly number[]; when: string; action: string };

/**
 * Every problem `type` the platform can answer: the error codes of `errorTable`, and the courier codes a problem
 * names in `code`. The problem builder points `type` at `problemTypeUri(code)`, and `app/problems/[slug]` renders
 * one page per entry from this list, so no code can be answered without a page explaining it.
 */
const appErrorTypes: Record<AppErrorCode, Omit<ProblemTypeExplanation, "title" | "statuses">> = {
  bad_request: {
    when: "A parameter, header or body field is missing or malformed: an unknown query parameter, a value out of range, an id that is no UUID, JSON that does not parse, a path that is not valid percent-encoding.",
    action:
      "Read `errors`: each entry names the field or parameter at fault and why. Fix the request; sending it again unchanged fails again.",
  },
  validation_failed: {
    when: "The request's content breaks a rule of the operation (outside create and validate, whose validation failures answer the validation response instead).",
    action: "Read `detail` and `errors`, correct the named fields and send the request again.",
  },
  unauthorized: {
    when: "No credential, or one the platform does not accept: an unknown or revoked API key, an expired access token, an API key sent to the private API, a wrong email or password.",
    action:
      "Send a valid credential as `WWW-Authenticate` asks: an API key (`Authorization: Bearer <key>` or `X-API-Key`) on the shipping API, an access token from `POST /api/v2/auth/token` on the private API.",
  },
  forbidden: {
    when: "The credential is valid but may not do this: an API key lacking the operation's permission, a member who is not an owner changing the account, a publishable key used from an origin it does not list.",
    action:
      "Grant the key the permission named in `detail` (dashboard → API keys), act as an owner, or add the origin to the publishable key.",
  },
  not_found: {
    when: "The resource does not exist or belongs to another account (the platform does not tell the two apart), or no operation serves the path.",
    action: "Check the id and the API key's account; ids of one account are not visible to another.",
  },
  conflict: {
    when: "The request contradicts the current state: a source pair already active, a ReferenceNumber already used under another source pair with `preventDuplicateOrders`, a request still in progress.",
    action:
      "Read `detail`; fetch the current state before deciding whether to retry. A `Retry-After` header says when a retry may succeed.",
  },
  payload_too_large: {
    when: "The request body is larger than 1 MiB.",
    action: "Send fewer orders per request (at most 500 in a batch) or a smaller body.",
  },
  unsupported_media_type: {
    when: "The `Content-Type` is not one the operation accepts.",
    action:
      "Send the content type the operation lists in the OpenAPI document (shipping orders: `application/svc.shipping-order+json` or `application/json`).",
  },
  unknown_source: {
    when: "The order's ReferenceSource and SourceIdentifier form a pair that matches no activated source of the account.",
    action:
      "Activate the source pair (dashboard → Sources, or `POST /api/v2/private/sources`), or send a pair that is active.",
  },
  unprocessable: {
    when: "The request is well-formed but cannot be carried out as asked: for example a courier that keeps no pickup-point directory.",
    action: "Read `detail`: it says which part of the request cannot be honoured.",
  },
  rate_limited: {
    when: "The API key, its account or the client address sent more requests than its limit allows in the current minute.",
    action:
      "Wait the seconds `Retry-After` gives; `RateLimit-Remaining` and `RateLimit-Reset` on every answer let a client slow down before it is refused.",
  },
  internal: {
    when: "An unexpected fault on the platform's side.",
    action: "Retry later; if it persists, quote the request id given in `detail` to support.",
  },
  bad_gateway: {
    when: "A service the platform called (a courier) answered with something the platform could not use.",
    action: "Retry later; the request may succeed once the courier answers properly.",
  },
  unavailable: {
    when: "The platform or a service it depends on is temporarily unavailable (for example the database).",
    action: "Retry after the seconds `Retry-After` gives.",
  },
};

const courierTypes: Record<CourierErrorCode, ProblemTypeExplanation> = {
  COURIER_REJECTED: {
    title: "Courier refused the cancel",
    statuses: [503],
    when: "Deleting an order: the courier refused to cancel the shipment for another reason than its state. The order is unchanged.",
    action: "Retry the delete later; read `detail` for the courier's answer.",
  },
  COURIER_AUTH_FAILED: {
    title: "Courier refused the credentials",
    statuses: [503],
    when: "Deleting an order: the courier refused the credentials of the order's courier profile. The order is unchanged.",
    action: "Update the courier profile's credentials in the dashboard (Courier profiles), then delete again.",
  },
  COURIER_UNAVAILABLE: {
    title: "Courier unavailable",
    statuses: [502, 503],
    when: "The courier could not be reached or answered something unusable: a label it cannot produce or a shipping number already in use (502), a cancel it could not be asked for (503). Nothing was changed.",
    action: "Retry later.",
  },
  COURIER_TIMEOUT: {
    title: "Courier did not answer in time",
    statuses: [503],
    when: "Deleting an order: the courier gave no answer to the cancel within the courier timeout. The order is unchanged.",
    action: "Retry the delete later.",
  },
  COURIER_CANNOT_CANCEL: {
    title: "Courier cannot cancel the shipment",
    statuses: [409],
    when: "Deleting an order: the courier no longer cancels the shipment (it has been handed over or is on its way). The order is kept.",
    action: "Nothing to retry: the shipment goes on. Arrange a return with the courier if it must come back.",
  },
};

/** A problem code as the last segment of its type URI: `rate_limited` → `rate-limited`, `COURIER_TIMEOUT` → `courier-timeout`. */
export const problemTypeSlug = (code: string) => code.toLowerCase().replaceAll("_", "-");

/**
 * The `type` of a problem: a relative URI reference (RFC 9457 §3.1.1) to the platform's own page for it, resolved
 * against the request's URL, so it names a page that exists whatever origin serves the API.
 */
export const problemTypeUri = (code: string) => `/problems/${problemTypeSlug(code)}`;

/** Every problem type by its slug, with its explanation. */
export const PROBLEM_TYPES: ReadonlyMap<string, ProblemTypeExplanation> = new Map([
  ...(Object.entries(appErrorTypes) as [AppErrorCode, (typeof appErrorTypes)[AppErrorCode]][]).map(
    ([code, explanation]) =>
      [
        problemTypeSlug(code),
        { title: errorTable[code].title, statuses: [errorTable[code].status], ...explanation },
      ] as const,
  ),
  ...Object.entries(courierTypes).map(([code, explanation]) => [problemTypeSlug(code), explanation] as const),
]);
