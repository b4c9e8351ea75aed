import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/**
 * What each error code means to each door: the HTTP status and problem title of the REST API, the tRPC code
 * of the dashboard, and whether it is the caller's doing (expected: not logged) or the server's failure.
 * One table for the whole product; the REST wrapper and the tRPC error middleware both read it.
 */
export const errorTable = {
  bad_request: { status: 400, title: "Bad Request", trpc: "BAD_REQUEST", expected: true },
  validation_failed: { status: 400, title: "Bad Request", trpc: "BAD_REQUEST", expected: true },
  unauthorized: { status: 401, title: "Unauthorized", trpc: "UNAUTHORIZED", expected: true },
  forbidden: { status: 403, title: "Forbidden", trpc: "FORBIDDEN", expected: true },
  not_found: { status: 404, title: "Not Found", trpc: "NOT_FOUND", expected: true },
  conflict: { status: 409, title: "Conflict", trpc: "CONFLICT", expected: true },
  payload_too_large: { status: 413, title: "Content Too Large", trpc: "PAYLOAD_TOO_LARGE", expected: true },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported Media Type",
    trpc: "UNSUPPORTED_MEDIA_TYPE",
    expected: true,
  },
  unknown_source: { status: 422, title: "Unprocessable Content", trpc: "UNPROCESSABLE_CONTENT", expected: true },
  unprocessable: { status: 422, title: "Unprocessable Content", trpc: "UNPROCESSABLE_CONTENT", expected: true },
  rate_limited: { status: 429, title: "Too Many Requests", trpc: "TOO_MANY_REQUESTS", expected: true },
  internal: { status: 500, title: "Internal Server Error", trpc: "INTERNAL_SERVER_ERROR", expected: false },
  bad_gateway: { status: 502, title: "Bad Gateway", trpc: "BAD_GATEWAY", expected: false },
  unavailable: { status: 503, title: "Service Unavailable", trpc: "SERVICE_UNAVAILABLE", expected: false },
} as const satisfies Record<string, { status: number; title: string; trpc: TRPC_ERROR_CODE_KEY; expected: boolean }>;

export type AppErrorCode = keyof typeof errorTable;

const codes = Object.keys(errorTable) as AppErrorCode[];

/** The HTTP status of each code (a view of `errorTable`). */
export const httpStatusOf = Object.fromEntries(codes.map((code) => [code, errorTable[code].status])) as Record<
  AppErrorCode,
  number
>;

export type FieldError = { field: string; message: string };

/** A bucket of the rate limiter as a client is told about it. */
export type RateLimitFigures = { limit: number; remaining: number; resetSeconds: number };

/** What a door may need to answer an error beyond its code and message; each door renders it its own way. */
export type AppErrorDetails = {
  /** When a retry may succeed (a refused rate limit, a request still in progress). */
  retryAfterSeconds?: number;
  /** The caller's rate-limit bucket after the refusal. */
  rateLimit?: RateLimitFigures;
  /** The credential asked for: a bearer token, of the named realm when there is one. */
  challenge?: { realm?: "shipping-orders" | "private-api" };
  /** The operation's own result, answered instead of a problem (create's per-order validation results). */
  result?: unknown;
  /** A contract code the problem names in `code` (and its `type`), e.g. COURIER_CANNOT_CANCEL. */
  problemCode?: string;
};

/**
 * The one error the domain throws. Services know nothing of HTTP or tRPC: they say what went wrong (a code of
 * `errorTable`), a message, the fields at fault and typed details; the doors make headers and bodies of them.
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly errors?: FieldError[];
  readonly details: AppErrorDetails;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { errors?: FieldError[]; details?: AppErrorDetails; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.errors = options.errors;
    this.details = options.details ?? {};
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found.`);

export const badField = (field: string, message: string) =>
  new AppError("bad_request", `${field}: ${message}`, { errors: [{ field, message }] });
