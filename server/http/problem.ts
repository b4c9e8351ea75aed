import { randomUUID } from "node:crypto";
import { AppError, httpStatusOf, isDatabaseUnavailable, type FieldError } from "@/server/errors";

/** The problem `title` of each status (RFC 9110 reason phrases); the OpenAPI examples use the same table. */
export const problemTitles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  requestId?: string;
};

export function problem(
  status: number,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; code?: string } = {},
): Response {
  const body: Problem = {
    type: extra.code ? `https://docs.shipping-orders.dev/problems/${extra.code.replaceAll("_", "-")}` : "about:blank",
    title: problemTitles[status] ?? "Error",
    status,
    detail,
  };
  if (extra.errors?.length) body.errors = extra.errors;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...extra.headers },
  });
}

/** Turns anything thrown by a handler into a response; unknown errors are logged, never leaked. */
export function errorResponse(error: unknown, request?: Request): Response {
  if (error instanceof AppError) {
    const status = httpStatusOf[error.code];
    if (error.body !== undefined) {
      return new Response(JSON.stringify(error.body), {
        status,
        headers: { "content-type": "application/json", ...error.headers },
      });
    }
    return problem(status, error.message, { errors: error.errors, headers: error.headers, code: error.code });
  }
  const requestId = randomUUID();
  if (isDatabaseUnavailable(error)) {
    console.error(
      JSON.stringify({
        level: "error",
        requestId,
        msg: "database unavailable",
        path: pathOf(request),
        error: String(error),
      }),
    );
    return problem(503, `The service is temporarily unavailable; retry shortly. Request id ${requestId}.`, {
      headers: { "retry-after": "1" },
      code: "unavailable",
    });
  }
  console.error(
    JSON.stringify({
      level: "error",
      requestId,
      msg: "unhandled error",
      path: pathOf(request),
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
  return problem(500, `An unexpected error occurred. Request id ${requestId}.`, { code: "internal" });
}

function pathOf(request?: Request): string | undefined {
  if (!request) return undefined;
  try {
    return new URL(request.url).pathname;
  } catch {
    return undefined;
  }
}
