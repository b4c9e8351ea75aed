import type { ResponseConfig, RouteConfig, ZodContentObject } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { type AppError, httpStatusOf, notFound } from "@/server/errors";
import { malformedJson, tooLarge, unsupportedMediaType } from "@/server/http/body";
import type { Content, Header, Operation, ProblemExample, Problems } from "@/server/http/operation";
import { databaseUnavailable, problemBody, unexpectedError } from "@/server/http/problem";
import { unknownQueryParameters } from "@/server/http/query";
import { accessTokenRefusals } from "@/server/http/with-access-token";
import { publishableRefusals } from "@/server/http/publishable-key";
import { apiKeyRefusals } from "@/server/http/with-api-key";
import { accountIdRequired, ownerOnly } from "@/server/services/authorization";
import { ProblemSchema } from "./components";
import { accessTokenSecurity, apiKeySecurity, noSecurity } from "./security";

const PROBLEM = "application/problem+json";

/** The figures the examples of a refused rate limit show. */
export const EXHAUSTED = { allowed: false, limit: 600, remaining: 0, resetSeconds: 2, retryAfterSeconds: 2 };

/** An example problem body: exactly what `server/http/problem.ts` answers for the error. */
const problemValue = (error: AppError) =>
  problemBody(httpStatusOf[error.code], error.message, {
    errors: error.errors,
    code: error.code,
    problemCode: error.details.problemCode,
  });

const HEADER_DESCRIPTIONS: Record<string, string> = {
  "WWW-Authenticate": "The authentication scheme to use.",
  "Retry-After": "Seconds to wait before the request can succeed.",
  "RateLimit-Limit": "The key's `rateLimitPerMinute`.",
  "RateLimit-Remaining": "Requests left in the current window.",
  "RateLimit-Reset": "Seconds until the full limit is available again.",
};

const header = (name: string, example: string | number, required: boolean): Header => ({
  description: HEADER_DESCRIPTIONS[name]!,
  required,
  schema: { type: typeof example === "number" ? "integer" : "string", example },
});

/** The headers an error makes `problem.ts` send, as the document names them. */
function headersOf({ details }: AppError): Record<string, string | number> {
  const { challenge, retryAfterSeconds, rateLimit } = details;
  return {
    ...(challenge ? { "WWW-Authenticate": challenge.realm ? `Bearer realm="${challenge.realm}"` : "Bearer" } : {}),
    ...(retryAfterSeconds !== undefined ? { "Retry-After": retryAfterSeconds } : {}),
    ...(rateLimit
      ? {
          "RateLimit-Limit": rateLimit.limit,
          "RateLimit-Remaining": rateLimit.remaining,
          "RateLimit-Reset": rateLimit.resetSeconds,
        }
      : {}),
  };
}

/** The API-key rate-limit headers every answer after authentication carries. */
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": header("RateLimit-Limit", 600, true),
  "RateLimit-Remaining": header("RateLimit-Remaining", 597, true),
  "RateLimit-Reset": header("RateLimit-Reset", 1, true),
};

const DEFAULT_DESCRIPTIONS: Record<number, string> = {
  400: "The request is malformed: `errors` names each parameter or field at fault.",
  404: "Not found: a malformed id, or one of another account, answers the same.",
  413: "The body is larger than 1 MiB (checked while reading, whatever Content-Length says).",
  500: "An unexpected error; the detail carries a request id to quote, never internals.",
  503: "The database is unreachable for a moment; retry.",
};

const problems = (description: string | undefined, examples: Problems["examples"]): Problems => ({
  description,
  examples,
});

/** The problems an operation's kind implies: its authentication, its body, its query, the server. */
function impliedProblems(op: Operation): Partial<Record<number, Problems>>[] {
  const queryNames = Object.keys(op.query?.shape ?? {});
  const accepted = Object.keys(op.body?.content ?? {});
  const bodySchema = Object.values(op.body?.content ?? {})[0]?.schema;
  const accountScoped =
    queryNames.includes("accountId") || (bodySchema instanceof z.ZodObject && "accountId" in bodySchema.shape);
  const implied: Partial<Record<number, Problems>>[] = [
    {
      400: problems("A query parameter this operation does not take.", {
        unknownQueryParameter: ["Unknown query parameter", unknownQueryParameters(["referenceSourc"], queryNames)],
      }),
    },
  ];
  if (op.body) {
    implied.push({
      400: problems(undefined, { malformed: ["Malformed JSON", malformedJson()] }),
      413: problems(undefined, { tooLarge: ["Body over 1 MiB", tooLarge()] }),
      415: problems(`The Content-Type is not ${accepted.join(" or ")}.`, {
        unsupported: ["Wrong Content-Type", unsupportedMediaType("text/plain", accepted)],
      }),
    });
  }
  if (op.notFound) {
    implied.push({ 404: problems(undefined, { notFound: [`Unknown ${op.notFound}`, notFound(op.notFound)] }) });
  }
  if (accountScoped) {
    implied.push({
      400: problems(undefined, {
        accountId: ["accountId missing for a user of several accounts", accountIdRequired()],
      }),
      404: problems(undefined, { account: ["Not the user's account", notFound("Account")] }),
    });
  }
  if (op.auth === "accessToken") {
    implied.push({
      401: problems("No access token, or an invalid or expired one. An API key is not an access token.", {
        missing: ["No token", accessTokenRefusals.missing()],
        invalid: ["Invalid or expired token", accessTokenRefusals.invalid()],
      }),
      ...(op.method === "get"
        ? {}
        : {
            403: problems(
              "The user is a member, not an owner, of the account: members read, owners (and staff) change.",
              {
                member: ["Member, not owner", ownerOnly()],
              },
            ),
          }),
    });
  } else if (op.auth !== "none") {
    const { apiKey } = op.auth;
    implied.push({
      401: problems("No API key, or an unknown or revoked one.", {
        missing: ["No API key", apiKeyRefusals.missing()],
        revoked: ["Unknown or revoked key", apiKeyRefusals.unknown()],
      }),
      403: problems(
        op.auth.publishable
          ? `A secret key lacks the permission \`${apiKey}\`.`
          : `The API key lacks the permission \`${apiKey}\`, or is a publishable key (\`svc_pk_…\`: pickup-point search only).`,
        {
          permission: ["Missing permission", apiKeyRefusals.lacking(apiKey)],
          ...(op.auth.publishable ? {} : { publishable: ["A publishable key", publishableRefusals.elsewhere()] }),
        },
      ),
      429: problems(
        "The key's `rateLimitPerMinute` is used up (each order of a batch counts as one request; the limit holds across app instances).",
        { limit: ["Rate limit exhausted", apiKeyRefusals.exhausted(EXHAUSTED)] },
      ),
    });
  }
  if (op.serverErrors !== false) {
    implied.push({
      500: problems(undefined, {
        internal: ["Unexpected error", unexpectedError("3f0c1f8e-2a7b-4f0e-9d55-0c6f1b1f3a41")],
      }),
      503: problems(undefined, {
        unavailable: ["Database unreachable", databaseUnavailable("8d2b6f0a-51c4-4c1e-a0a5-6f3e2d9b7c10")],
      }),
    });
  }
  return implied;
}

/** The problem answers of an operation: the implied ones, and its own (whose description wins). */
function problemResponses(op: Operation): Record<number, ResponseConfig> {
  const merged: Record<number, { descriptions: string[]; examples: Record<string, ProblemExample> }> = {};
  for (const part of [...impliedProblems(op), op.errors ?? {}]) {
    for (const [status, { description, examples }] of Object.entries(part) as [string, Problems][]) {
      const entry = (merged[Number(status)] ??= { descriptions: [], examples: {} });
      if (description) entry.descriptions.push(description);
      Object.assign(entry.examples, examples);
    }
  }
  const own = op.errors ?? {};
  return Object.fromEntries(
    Object.entries(merged).map(([key, { descriptions, examples }]) => {
      const status = Number(key);
      const errors = Object.values(examples).map(([, error]) => error);
      const headers: Record<string, Header> = {};
      for (const error of errors) {
        for (const [name, value] of Object.entries(headersOf(error))) {
          headers[name] ??= header(
            name,
            value,
            errors.every((e) => name in headersOf(e)),
          );
        }
      }
      const description =
        own[status]?.description ??
        (descriptions.length === 1 ? descriptions[0] : DEFAULT_DESCRIPTIONS[status]) ??
        descriptions[0]!;
      const content = { [PROBLEM]: { schema: ProblemSchema, examples: examplesOf(examples, problemValue) } };
      return [status, { description, headers: Object.keys(headers).length ? headers : undefined, content }];
    }),
  );
}

const examplesOf = <T>(examples: Readonly<Record<string, readonly [string, T]>>, value: (v: T) => unknown) =>
  Object.fromEntries(Object.entries(examples).map(([name, [summary, v]]) => [name, { summary, value: value(v) }]));

function contentOf(content: Content): ZodContentObject {
  return Object.fromEntries(
    Object.entries(content).map(([type, { schema, examples }]) => [
      type,
      { schema, examples: examples && examplesOf(examples, (v) => v) },
    ]),
  ) as ZodContentObject;
}

function responsesOf(op: Operation): Record<number, ResponseConfig> {
  const responses = problemResponses(op);
  for (const [key, answer] of Object.entries(op.responses)) {
    const status = Number(key);
    const problem = responses[status];
    responses[status] = {
      description: answer.description,
      headers: answer.headers,
      content: answer.content || problem ? { ...contentOf(answer.content ?? {}), ...problem?.content } : undefined,
    };
  }
  if (typeof op.auth === "object") {
    for (const [status, response] of Object.entries(responses)) {
      if (status !== "401") response.headers = { ...(response.headers as object), ...RATE_LIMIT_HEADERS };
    }
  }
  return responses;
}

const repeatable = (name: string) =>
  `Repeat the parameter (\`?${name}=a&${name}=b\`) or separate values with commas (\`?${name}=a,b\`); both mean the same.`;

type ParamMeta = { param?: { description?: string }; [key: string]: unknown };

/**
 * The query as documented: an array parameter also takes the comma form, which arrives as one string, so
 * its schema admits a string too (`style: form`, `explode: true`) and a validator built from the document
 * accepts both forms the API reads.
 */
function documentedQuery(op: Operation): z.ZodObject | undefined {
  if (!op.query) return undefined;
  const arrays = op.arrays ?? [];
  const shape = Object.fromEntries(
    Object.entries(op.query.shape as Record<string, z.ZodType>).map(([name, field]) => {
      if (!arrays.includes(name)) return [name, field];
      const meta = (field.meta() ?? {}) as ParamMeta;
      const items = field instanceof z.ZodOptional || field instanceof z.ZodDefault ? field.unwrap() : field;
      const either = z.union([items as z.ZodType, z.string().describe("Comma-separated values.")]);
      const param = { ...meta.param, description: `${meta.param?.description ?? ""} ${repeatable(name)}`.trim() };
      return [
        name,
        (field.isOptional() ? either.optional() : either).meta({
          ...meta,
          param: { ...param, style: "form", explode: true },
        }),
      ];
    }),
  );
  return z.object(shape);
}

/** `application/json` first: validators and generated clients pick the first media type. */
function jsonFirst({ "application/json": json, ...rest }: Content): Content {
  return json ? { "application/json": json, ...rest } : rest;
}

/** What the generator registers for an operation. */
export function routeConfigOf(op: Operation): RouteConfig {
  const permission = typeof op.auth === "object" ? op.auth.apiKey : null;
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: permission ? `${op.description} Requires the permission \`${permission}\`.` : op.description,
    security: permission ? apiKeySecurity(permission) : op.auth === "accessToken" ? accessTokenSecurity : noSecurity,
    request: {
      params: op.params,
      query: documentedQuery(op),
      headers: op.headers,
      body: op.body && {
        required: true,
        description: op.body.description,
        content: contentOf(jsonFirst(op.body.content)),
      },
    },
    responses: responsesOf(op),
  };
}
