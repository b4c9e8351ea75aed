import type { ResponseConfig, ZodContentObject } from "@asteasolutions/zod-to-openapi";
import { problemTitles } from "@/server/http/problem";
import type { z } from "zod";
import { httpStatusOf, type AppErrorCode, type FieldError } from "@/server/errors";
import type { ApiKeyPermission } from "@/server/services/api-keys/schemas";
import { ProblemSchema } from "./components";

export type Example = { summary: string; description?: string; value: unknown };
export type Examples = Record<string, Example>;

/** `required`: sent with every answer of that status (the tests hold real answers to it), not only in some cases. */
type Header = {
  description: string;
  required: boolean;
  schema: { type: "string" | "integer"; example: string | number };
};
export type HeaderMap = Record<string, Header>;
/** A response as the paths write it: headers always a plain map, so they can be merged. */
export type Res = Omit<ResponseConfig, "headers"> & { headers?: HeaderMap };
export type Responses = Record<number, Res>;

export const stringHeader = (description: string, example: string, required = true): Header => ({
  description,
  required,
  schema: { type: "string", example },
});
export const integerHeader = (description: string, example: number, required = true): Header => ({
  description,
  required,
  schema: { type: "integer", example },
});

export const PROBLEM_TYPE = "application/problem+json";

/** `{ "application/json": { schema, examples } }` (or another media type). */
export const content = (schema: z.ZodType, examples: Examples, mediaType = "application/json"): ZodContentObject => ({
  [mediaType]: { schema, examples },
});

export const jsonResponse = (description: string, schema: z.ZodType, examples: Examples, headers?: HeaderMap): Res => ({
  description,
  ...(headers ? { headers } : {}),
  content: content(schema, examples),
});

/** An example problem body exactly as `server/http/problem.ts` shapes it for an `AppError` of `code`. */
export function problemExample(summary: string, code: AppErrorCode, detail: string, errors?: FieldError[]): Example {
  const status = httpStatusOf[code];
  return {
    summary,
    value: {
      type: `https://docs.shipping-orders.dev/problems/${code.replaceAll("_", "-")}`,
      title: problemTitles[status],
      status,
      detail,
      ...(errors ? { errors } : {}),
    },
  };
}

export const problemResponse = (description: string, examples: Examples, headers?: HeaderMap): Res => ({
  description,
  ...(headers ? { headers } : {}),
  content: content(ProblemSchema, examples, PROBLEM_TYPE),
});

export const wwwAuthenticate = (value: string): HeaderMap => ({
  "WWW-Authenticate": stringHeader("The authentication scheme to use.", value),
});

const retryAfter: HeaderMap = {
  "Retry-After": integerHeader("Seconds to wait before retrying; sent when the database is unreachable.", 1, false),
};

/** A body that is read as JSON: malformed → 400, over 1 MiB → 413, another Content-Type → 415. */
export function bodyErrors(accepted: string): Responses {
  return {
    413: problemResponse("The body is larger than 1 MiB (checked while reading, whatever Content-Length says).", {
      tooLarge: problemExample(
        "Body over 1 MiB",
        "payload_too_large",
        "The request body exceeds 1048576 bytes (1 MiB).",
        [{ field: "body", message: "larger than 1 MiB" }],
      ),
    }),
    415: problemResponse(`The Content-Type is not ${accepted}.`, {
      unsupported: problemExample(
        "Wrong Content-Type",
        "unsupported_media_type",
        `Content-Type must be ${accepted}; got text/plain.`,
        [{ field: "Content-Type", message: `expected ${accepted}` }],
      ),
    }),
  };
}

export const malformedJson = problemExample("Malformed JSON", "bad_request", "The request body is not valid JSON.", [
  { field: "body", message: "malformed JSON" },
]);

/** 500 and 503: any operation that reaches the database. */
export const serverErrors = (): Responses => ({
  500: problemResponse("An unexpected error; the detail carries a request id to quote, never internals.", {
    internal: problemExample(
      "Unexpected error",
      "internal",
      "An unexpected error occurred. Request id 3f0c1f8e-2a7b-4f0e-9d55-0c6f1b1f3a41.",
    ),
  }),
  503: problemResponse(
    "The database is unreachable for a moment; retry.",
    {
      unavailable: problemExample(
        "Database unreachable",
        "unavailable",
        "The service is temporarily unavailable; retry shortly. Request id 8d2b6f0a-51c4-4c1e-a0a5-6f3e2d9b7c10.",
      ),
    },
    retryAfter,
  ),
});

export const unknownQueryParameter = problemExample(
  "Unknown query parameter",
  "bad_request",
  "Unknown query parameter referenceSourc. This operation accepts page, pageSize.",
  [{ field: "referenceSourc", message: "is not a parameter of this operation" }],
);

/**
 * Every operation answers 400 to a query parameter it does not take (see `RouteOptions` in
 * server/http/handler.ts): adds that example to the operation's 400, or a 400 when it has none.
 */
export function withUnknownQuery(responses: Responses): Responses {
  const existing = responses[400];
  if (!existing) {
    return {
      ...responses,
      400: problemResponse("A query parameter this operation does not take.", { unknownQueryParameter }),
    };
  }
  const problem = existing.content?.[PROBLEM_TYPE];
  if (!problem || !("schema" in problem)) {
    return {
      ...responses,
      400: {
        ...existing,
        content: { ...existing.content, ...content(ProblemSchema, { unknownQueryParameter }, PROBLEM_TYPE) },
      },
    };
  }
  const examples = { ...(problem.examples as Examples | undefined), unknownQueryParameter };
  return {
    ...responses,
    400: { ...existing, content: { ...existing.content, [PROBLEM_TYPE]: { ...problem, examples } } },
  };
}

/** On every answer of the shipping-order API after the key is known (not on 401). */
const rateLimitHeaders: HeaderMap = {
  "RateLimit-Limit": integerHeader("The key's `rateLimitPerMinute`.", 600),
  "RateLimit-Remaining": integerHeader("Requests left in the current window.", 597),
  "RateLimit-Reset": integerHeader("Seconds until the full limit is available again.", 1),
};

const tooManyRequests = (description: string, examples: Examples): Res =>
  problemResponse(description, examples, {
    ...rateLimitHeaders,
    "Retry-After": integerHeader("Seconds to wait before the request can succeed.", 2),
  });

const withHeaders = (response: Res, headers: HeaderMap): Res => ({
  ...response,
  headers: { ...response.headers, ...headers },
});

/**
 * The responses of a shipping-order API operation: its own, plus 401, 403, 429, 500 and 503; every answer
 * but 401 carries the rate-limit headers. An operation's own response for a status wins.
 */
export function apiKeyResponses(permission: ApiKeyPermission, responses: Responses): Responses {
  const all: Responses = {
    401: problemResponse(
      "No API key, or an unknown or revoked one.",
      {
        missing: problemExample(
          "No API key",
          "unauthorized",
          "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.",
        ),
        revoked: problemExample("Unknown or revoked key", "unauthorized", "The API key is unknown or revoked."),
      },
      wwwAuthenticate('Bearer realm="shipping-orders"'),
    ),
    403: problemResponse(`The API key lacks the permission \`${permission}\`.`, {
      permission: problemExample("Missing permission", "forbidden", `The API key lacks the permission ${permission}.`),
    }),
    429: tooManyRequests(
      "The key's `rateLimitPerMinute` is used up (each order of a batch counts as one request; the limit holds across app instances).",
      {
        limit: problemExample(
          "Rate limit exhausted",
          "rate_limited",
          "The API key's rate limit is exhausted: retry in 2 s.",
        ),
      },
    ),
    ...serverErrors(),
    ...responses,
  };
  return Object.fromEntries(
    Object.entries(withUnknownQuery(all)).map(([status, response]) => [
      status,
      status === "401" ? response : withHeaders(response, rateLimitHeaders),
    ]),
  );
}

export const signInThrottled = tooManyRequests(
  "Too many attempts for this email (10 a minute) or from this address (60 a minute).",
  {
    email: problemExample(
      "Too many attempts",
      "rate_limited",
      "Too many sign-in attempts for this email: retry in 6 s.",
    ),
  },
);

/** 401, 500 and 503 of every private API operation (403 only where it changes something: see `ownerOnly`). */
export function accessTokenErrors(): Responses {
  return {
    401: problemResponse(
      "No access token, or an invalid or expired one. An API key is not an access token.",
      {
        missing: problemExample(
          "No token",
          "unauthorized",
          "An access token is required: POST /api/v2/auth/token, then send Authorization: Bearer <accessToken>.",
        ),
        invalid: problemExample("Invalid or expired token", "unauthorized", "The access token is invalid or expired."),
      },
      wwwAuthenticate('Bearer realm="private-api"'),
    ),
    ...serverErrors(),
  };
}

export const ownerOnly: Responses = {
  403: problemResponse(
    "The user is a member, not an owner, of the account: members can read, only owners (and staff) change.",
    {
      member: problemExample(
        "Member, not owner",
        "forbidden",
        "Only an owner of the account can change its integration settings.",
      ),
    },
  ),
};
