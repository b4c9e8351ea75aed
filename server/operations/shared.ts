import { z } from "zod";
import { AppError } from "@/server/errors";
import type { Answer, Example, Header } from "@/server/http/operation";
import { ACCOUNT_ID } from "@/server/openapi/examples";
import { pagingQuery } from "@/server/services/pagination";

/** `page` and `pageSize` as every paged list parses them; on the wire digit strings, shown as the integers they mean. */
export const pagingParams = {
  page: pagingQuery.shape.page.meta({
    type: "integer",
    minimum: 1,
    default: 1,
    param: { description: "The page to return, 1 or more (default 1). 0 or a non-number → 400." },
  }),
  pageSize: pagingQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 50,
    default: 20,
    param: { description: "Items per page, 1 to 50 (default 20). Out of range → 400." },
  }),
};

/** `accountId` of the private reads: any text is taken (a malformed id answers 404, as another's account does). */
export const accountQuery = z.object({
  accountId: z
    .string()
    .optional()
    .meta({
      format: "uuid",
      param: {
        description:
          "The account. Optional when the user belongs to exactly one account (that one is used); otherwise required (400). " +
          "An account the user does not belong to, or a malformed id → 404.",
      },
      example: ACCOUNT_ID,
    }),
});

export const pagedAccountQuery = accountQuery.extend(pagingParams);

/** The `{id}` of a resource: malformed, unknown and another account's ids all answer 404. */
export const idParams = (what: string, example: string) =>
  z.object({
    id: z
      .uuid()
      .meta({ param: { description: `The ${what}'s id. Malformed, unknown or of another account → 404.` }, example }),
  });

type Examples = Readonly<Record<string, Example>>;

/** A JSON answer. */
export const answer = (
  description: string,
  schema: z.ZodType,
  examples: Examples,
  headers?: Record<string, Header>,
): Answer => ({ description, ...(headers ? { headers } : {}), content: { "application/json": { schema, examples } } });

/** A JSON body; a change also takes `application/merge-patch+json` (the same merge semantics), with its own examples. */
export const jsonBody = (schema: z.ZodType, examples: Examples, mergePatch?: Examples) => ({
  content: {
    "application/json": { schema, examples },
    ...(mergePatch ? { "application/merge-patch+json": { schema, examples: mergePatch } } : {}),
  },
});

export const noStore: Record<string, Header> = {
  "Cache-Control": {
    description: "The answer carries a secret: never cached.",
    required: true,
    schema: { type: "string", example: "no-store" },
  },
};

/** `schema` with parameters described for partners: a `.meta()` changes nothing of what it parses. */
export const describeParams = <S extends z.ZodObject>(
  schema: S,
  params: Partial<Record<keyof S["shape"], readonly [description: string, example?: unknown]>>,
): S =>
  schema.extend(
    Object.fromEntries(
      (Object.entries(params) as [string, readonly [string, unknown?]][]).map(([name, [description, example]]) => [
        name,
        (schema.shape[name] as z.ZodType).meta({
          param: { description },
          ...(example === undefined ? {} : { example }),
        }),
      ]),
    ),
  ) as unknown as S;

/** The error `run` throws: examples show what the code answers, not a copy of it. */
export function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}
