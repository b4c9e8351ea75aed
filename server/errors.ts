/**
 * The one error the domain throws. Services know nothing of HTTP; the REST wrapper and the tRPC error
 * middleware translate `code` through the tables in `server/http/problem.ts` and `server/trpc/init.ts`.
 */
export type AppErrorCode =
  | "bad_request"
  | "validation_failed"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unknown_source"
  | "unprocessable"
  | "rate_limited"
  | "unavailable"
  | "internal";

export type FieldError = { field: string; message: string };

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly errors?: FieldError[];
  /** A body the REST door sends as is instead of a problem (create's 400 validation response). */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { errors?: FieldError[]; body?: unknown; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.errors = options.errors;
    this.body = options.body;
    this.headers = options.headers;
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found.`);

export const badField = (field: string, message: string) =>
  new AppError("bad_request", `${field}: ${message}`, { errors: [{ field, message }] });

/** The HTTP status of each code: one table for the whole product. */
export const httpStatusOf: Record<AppErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unknown_source: 422,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/** Errors from the database driver that mean "PostgreSQL is not reachable right now", not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  const code = e?.code ?? e?.cause?.code;
  return (
    code === "ECONNREFUSED" ||
    code === "ECONNRESET" ||
    code === "CONNECTION_CLOSED" ||
    code === "CONNECTION_ENDED" ||
    code === "CONNECTION_DESTROYED" ||
    code === "CONNECT_TIMEOUT" ||
    code === "57P01" || // admin_shutdown (pg_terminate_backend)
    code === "57P02" ||
    code === "57P03" // cannot_connect_now
  );
}
