import type { z } from "zod";
import type { AppError } from "@/server/errors";
import type { ApiKeyPermission } from "@/lib/api-key-permissions";
import type { ApiKeyPrincipal } from "@/server/services/api-keys/verify-api-key";
import type { Actor } from "@/server/services/authorization";
import { readJson } from "./body";
import { handler, type HandlerArgs } from "./handler";
import { parseQuery } from "./query";
import { withAccessToken } from "./with-access-token";
import { withApiKey, type RateLimiter } from "./with-api-key";

/** An example of a body or an answer; of a problem, the very error the code throws. */
export type Example = readonly [summary: string, value: unknown];
export type ProblemExample = readonly [summary: string, error: AppError];

export type Header = {
  description: string;
  /** Sent with every answer of that status (the tests hold real answers to it), not only in some cases. */
  required: boolean;
  schema: { type: "string" | "integer"; example: string | number };
};

/** A schema the document shows as it is: a file, not JSON. */
type FileSchema = { type: "string"; format?: "binary"; contentMediaType: string };
export type Media = { schema: z.ZodType | FileSchema; examples?: Readonly<Record<string, Example>> };
export type Content = Readonly<Record<string, Media>>;
export type Answer = { description: string; headers?: Readonly<Record<string, Header>>; content?: Content };
export type Problems = { description?: string; examples: Readonly<Record<string, ProblemExample>> };

/**
 * Who may call: an API key holding a permission (`publishable`: a publishable key too, from its origins), a dashboard user's access token, or anyone. */
export type Auth = { apiKey: ApiKeyPermission; publishable?: true } | "accessToken" | "none";

/**
 * One REST operation, declared once: `route()` parses requests with it, the OpenAPI generator documents it.
 * The problems its kind implies (authentication, body, query, server) are the generator's to add; `errors`
 * holds only the operation's own.
 */
export type Operation = {
  method: "get" | "post" | "patch" | "delete";
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  auth: Auth;
  /** The path parameters, described (the route receives them as strings, its service judges them). */
  params?: z.ZodObject;
  /** What an unknown `{id}` names: the 404 is `notFound()` of it. */
  notFound?: string;
  /** Every query parameter: the wrapper refuses any other (400 naming it) and parses these. */
  query?: z.ZodObject;
  /** The query parameters taking repeated (`?a=1&a=2`) and comma (`?a=1,2`) forms alike. */
  arrays?: readonly string[];
  headers?: z.ZodObject;
  /** A JSON body of these media types, read by the wrapper (415, 413 and malformed JSON are its answers). */
  body?: { description?: string; content: Content };
  /** The answers that are not problems. */
  responses: Readonly<Record<number, Answer>>;
  errors?: Readonly<Partial<Record<number, Problems>>>;
  /** `false` for an operation that answers no 500/503 problem (health answers 503 itself). */
  serverErrors?: false;
};

/** A descriptor, with its literal path and auth kept for `route()`'s types. */
export const operation = <const O extends Operation>(op: O): O => op;

/** `/shipping-orders/{id}/label` → `{ id: string }`. */
type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Record<Name, string> & ParamsOf<Rest>
  : Record<never, string>;

type AuthArgs<A extends Auth> = A extends { apiKey: ApiKeyPermission }
  ? { principal: ApiKeyPrincipal; rateLimit: RateLimiter }
  : A extends "accessToken"
    ? { actor: Actor }
    : Record<never, never>;

type QueryOf<O extends Operation> = O["query"] extends z.ZodObject ? z.output<O["query"]> : Record<never, never>;

export type RouteArgs<O extends Operation> = HandlerArgs<ParamsOf<O["path"]>> &
  AuthArgs<O["auth"]> & { query: QueryOf<O>; body: unknown };

/** What Next calls: the request, and the path parameters of `O`'s path. */
export type RouteHandler<O extends Operation> = (
  request: Request,
  context?: { params: Promise<ParamsOf<O["path"]>> },
) => Promise<Response>;

type WrapperArgs = HandlerArgs<Record<string, string>> &
  Partial<{ principal: ApiKeyPrincipal; rateLimit: RateLimiter; actor: Actor }>;

/**
 * The route handler of an operation: authenticates as `op.auth` says, refuses undeclared query parameters,
 * reads the body as one of `op.body`'s media types and parses the query with `op.query`, then runs `fn`.
 */
export function route<const O extends Operation>(
  op: O,
  fn: (args: RouteArgs<O>) => Promise<Response>,
): RouteHandler<O> {
  const schema = op.query;
  const options = {
    query: schema ? Object.keys(schema.shape) : [],
    operationId: op.operationId,
    publishable: typeof op.auth === "object" && op.auth.publishable === true,
  };
  const arrays = op.arrays ?? [];
  const accepted = op.body ? Object.keys(op.body.content) : null;
  // Most requests carry no query: its parse is done once, here, and each request gets a copy.
  const bare = schema?.safeParse({});
  const queryOf = (url: URL): unknown => {
    if (!schema) return {};
    if (url.search === "" && bare?.success) return { ...(bare.data as object) };
    return parseQuery(schema, url, arrays);
  };
  const run = async (args: WrapperArgs) => {
    // The body first: a malformed body is refused before the query's values are judged, as routes always did.
    const body = accepted ? await readJson(args.request, accepted) : undefined;
    const query = queryOf(args.url);
    return fn({ ...args, query, body } as unknown as RouteArgs<O>);
  };
  const auth: Auth = op.auth;
  const wrapped =
    auth === "none"
      ? handler(run, options)
      : auth === "accessToken"
        ? withAccessToken(run, options)
        : withApiKey(auth.apiKey, run, options);
  return wrapped as RouteHandler<O>;
}
