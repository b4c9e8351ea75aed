import { logger } from "@/server/observability/logger";
import { currentRequest } from "@/server/observability/request-context";
import { randomUUID } from "node:crypto";
import { isDatabaseUnavailable } from "@/db/connection-errors";
import { problemTypeUri } from "@/server/http/problem-types";
import { AppError, errorTable, type AppErrorDetails, type FieldError, type RateLimitFigures } from "@/server/errors";

/** The problem `title` of each status (a view of `errorTable`); the OpenAPI examples use it too. */
export const problemTitles: Record<number, string> = Object.fromEntries(
  Object.values(errorTable).map(({ status, title }) => [status, title]),
);

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The contract's code of the problem, where it names one (COURIER_CANNOT_CANCEL, COURIER_UNAVAILABLE). */
  code?: string;
  errors?: FieldError[];
  requestId?: string;
};

/** The problem body of a status; the OpenAPI examples are made with it too. */
export function problemBody(
  status: number,
  detail: string,
  extra: { errors?: FieldError[]; code?: string; problemCode?: string } = {},
): Problem {
  if (extra.problemCode)
    return {
      ...problemBody(status, detail, { errors: extra.errors, code: extra.problemCode.toLowerCase() }),
      code: extra.problemCode,
    };
  const body: Problem = {
    type: extra.code ? problemTypeUri(extra.code) : "about:blank",
    title: problemTitles[status] ?? "Error",
    status,
    detail,
  };
  if (extra.errors?.length) body.errors = extra.errors;
  return body;
}

export function problem(
  status: number,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; code?: string; problemCode?: string } = {},
): Response {
  return new Response(JSON.stringify(problemBody(status, detail, extra)), {
    status,
    headers: { "content-type": "application/problem+json", ...extra.headers },
  });
}

/** The RateLimit-* headers (IETF draft) of a bucket: on every answer of the shipping API after authentication. */
export const rateLimitHeaders = ({ limit, remaining, resetSeconds }: RateLimitFigures): Record<string, string> => ({
  "ratelimit-limit": String(limit),
  "ratelimit-remaining": String(remaining),
  "ratelimit-reset": String(resetSeconds),
});

/** The headers an error's details call for. */
function headersOf({ rateLimit, retryAfterSeconds, challenge }: AppErrorDetails): Record<string, string> {
  return {
    ...(rateLimit ? rateLimitHeaders(rateLimit) : {}),
    ...(retryAfterSeconds !== undefined ? { "retry-after": String(retryAfterSeconds) } : {}),
    ...(challenge ? { "www-authenticate": challenge.realm ? `Bearer realm="${challenge.realm}"` : "Bearer" } : {}),
  };
}

/** What an unexpected error answers: a request id to quote, never internals. */
export const unexpectedError = (requestId: string) =>
  new AppError("internal", `An unexpected error occurred. Request id ${requestId}.`);

/** What an unreachable database answers. */
export const databaseUnavailable = (requestId: string) =>
  new AppError("unavailable", `The service is temporarily unavailable; retry shortly. Request id ${requestId}.`, {
    details: { retryAfterSeconds: 1 },
  });

/** Turns anything thrown by a handler into a response; unknown errors are logged, never leaked. */
export function errorResponse(error: unknown, request?: Request): Response {
  if (error instanceof AppError) {
    const { status } = errorTable[error.code];
    const headers = headersOf(error.details);
    if (error.details.result !== undefined) {
      return new Response(JSON.stringify(error.details.result), {
        status,
        headers: { "content-type": "application/json", ...headers },
      });
    }
    return problem(status, error.message, {
      errors: error.errors,
      headers,
      code: error.code,
      problemCode: error.details.problemCode,
    });
  }
  // The request's id (the same on its log lines and in `X-Request-Id`), so support can find the stack.
  const requestId = currentRequest()?.requestId ?? randomUUID();
  if (isDatabaseUnavailable(error)) {
    logger.error({ requestId, path: pathOf(request), err: String(error) }, "database unavailable");
    return errorResponse(databaseUnavailable(requestId));
  }
  logger.error({ requestId, path: pathOf(request), err: describeError(error) }, "unhandled error");
  return errorResponse(unexpectedError(requestId));
}

function pathOf(request?: Request): string | undefined {
  if (!request) return undefined;
  try {
    return new URL(request.url).pathname;
  } catch {
    return undefined;
  }
}

/**
 * The error's stack and each of its causes with their codes (drizzle wraps the driver's error as the cause of a
 * "Failed query" one): what support needs to tell a database fault from a bug.
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      const { code, errno, severity } = current as { code?: unknown; errno?: unknown; severity?: unknown };
      const tags = [code, errno, severity].filter((v) => v !== undefined).map(String);
      parts.push(
        `${depth ? "caused by: " : ""}${current.stack ?? current.message}${tags.length ? ` [${tags.join(" ")}]` : ""}`,
      );
      current = current.cause;
    } else {
      parts.push(`${depth ? "caused by: " : ""}${String(current)}`);
      break;
    }
  }
  return parts.join("\n");
}
