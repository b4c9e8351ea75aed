/**
 * The benchmark's baseline: the work the app's create and get routes do, through the same functions, behind a
 * bare `node:http` server with no framework, so that app ÷ baseline measures the framework (Next's router, Web
 * Request/Response, AsyncLocalStorage) and nothing else. Per request, as the app: the API key and a rate-limit
 * token (`authenticateApiKey`), the permission, unknown query parameters (`checkQuery`), the RateLimit-* headers and next.config's security headers on
 * every answer; for create the media type, the 1 MiB limit while streaming, the JSON walk (`parseJsonBody`),
 * the batch's extra tokens, the Idempotency-Key (looked up when sent), then `createShippingOrders`.
 *
 * Started by bench/run.ts as `node --import tsx bench/baseline-server.ts` with PORT, DATABASE_URL,
 * AUTH_SECRET and NODE_ENV=production in the environment. Same pool settings as the app (db/client.ts).
 */
import http from "node:http";
import { getDb, type Db } from "@/db/client";
import nextConfig from "@/next.config.mjs";
import { AppError } from "@/server/errors";
import { checkQuery } from "@/server/http/handler";
import { parseQuery } from "@/server/http/query";
import { assertAccepted, MAX_BODY_BYTES, parseJsonBody, readLimited, tooLarge } from "@/server/http/body";
import { assertIdempotencyKey, idempotencyFingerprint } from "@/server/http/idempotent";
import { errorResponse, rateLimitHeaders } from "@/server/http/problem";
import { authenticateApiKey, type ApiKeyAuthentication } from "@/server/http/with-api-key";
import {
  beginIdempotentRequest,
  completeIdempotentRequest,
  abandonIdempotentRequest,
} from "@/server/services/idempotency/idempotent-requests";
import { createShippingOrders } from "@/server/services/shipping-orders/create-shipping-orders";
import { getShippingOrder } from "@/server/services/shipping-orders/get-shipping-order";
import { listShippingOrdersOp } from "@/server/operations/shipping-orders";
import { listShippingOrders } from "@/server/services/shipping-orders/list-shipping-orders";
import { ORDER_CONTENT_TYPES, orderBatch } from "@/server/services/shipping-orders/order-batch";

const CREATE = /^\/api\/v2\/couriers\/([^/]+)\/shipping-orders$/;
const GET_ONE = /^\/api\/v2\/shipping-orders\/([^/]+)$/;
const LIST = "/api/v2/shipping-orders";
const LIST_PARAMS = Object.keys(listShippingOrdersOp.query.shape);

type Answer = { status: number; body: unknown; contentType?: string; headers?: Record<string, string> };

/** The headers next.config adds to every API answer (its `/:path*` and `/api/:path*` rules). */
const securityHeaders: Record<string, string> = Object.fromEntries(
  ((await nextConfig.headers?.()) ?? [])
    .filter((rule) => rule.source === "/:path*" || rule.source === "/api/:path*")
    .flatMap((rule) => rule.headers.map((h) => [h.key.toLowerCase(), h.value])),
);

function send(res: http.ServerResponse, answer: Answer): void {
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...securityHeaders,
    ...answer.headers,
    "content-type": answer.contentType ?? "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

const header = (req: http.IncomingMessage, name: string): string | null => {
  const v = req.headers[name];
  return typeof v === "string" ? v : null;
};

async function authenticated(db: Db, req: http.IncomingMessage): Promise<ApiKeyAuthentication> {
  const key =
    header(req, "x-api-key")?.trim() || /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1] || null;
  return authenticateApiKey(db, key);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  assertAccepted(mediaTypeOf(req), ORDER_CONTENT_TYPES);
  if (Number(header(req, "content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge();
  return parseJsonBody(await readLimited(req));
}

const mediaTypeOf = (req: http.IncomingMessage) =>
  (header(req, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();

/** The route's Idempotency-Key handling, through the same services. */
async function idempotent(
  db: Db,
  req: http.IncomingMessage,
  url: URL,
  accountId: string,
  body: unknown,
  run: () => Promise<Answer>,
): Promise<Answer> {
  const key = header(req, "idempotency-key");
  if (key === null) return run();
  assertIdempotencyKey(key);
  const fingerprint = idempotencyFingerprint(req.method ?? "POST", url, header(req, "content-type"), body);
  const start = await beginIdempotentRequest(db, accountId, key, fingerprint);
  if (start.kind === "replay")
    return {
      status: start.response.status,
      body: start.response.body,
      contentType: start.response.contentType,
      headers: { "idempotent-replayed": "true" },
    };
  let answer: Answer;
  try {
    answer = await run();
  } catch (error) {
    answer = await errorAnswer(error);
  }
  if (answer.status >= 500) await abandonIdempotentRequest(db, accountId, key);
  else
    await completeIdempotentRequest(db, accountId, key, {
      status: answer.status,
      contentType: answer.contentType ?? "application/json",
      body: answer.body,
    });
  return answer;
}

async function route(req: http.IncomingMessage): Promise<Answer> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const baseUrl = url.origin;
  if (req.method === "GET" && url.pathname === "/health") return { status: 200, body: { status: "ok" } };
  const db = await getDb();

  const create = req.method === "POST" ? CREATE.exec(url.pathname) : null;
  const getOne = req.method === "GET" ? GET_ONE.exec(url.pathname) : null;
  const list = req.method === "GET" && url.pathname === LIST;
  if (!create && !getOne && !list) return { status: 404, body: { status: 404, detail: "not found" } };

  const { principal, rateLimit } = await authenticated(db, req);
  let answer: Answer;
  try {
    const permission = create ? "shipping-orders:write" : "shipping-orders:read";
    if (!principal.permissions.includes(permission))
      throw new AppError("forbidden", `The API key lacks the permission ${permission}.`);
    checkQuery(url, { query: create ? ["profile"] : list ? LIST_PARAMS : [] });
    if (create) {
      const body = await readJson(req);
      const batch = orderBatch(mediaTypeOf(req), body);
      await rateLimit.take(batch.orders.length - 1);
      answer = await idempotent(db, req, url, principal.accountId, body, async () => ({
        status: 200,
        body: await createShippingOrders(
          db,
          { accountId: principal.accountId, apiKeyId: principal.keyId },
          {
            courierId: decodeURIComponent(create[1]!),
            profileId: url.searchParams.get("profile"),
            batch,
            preventDuplicateOrders: principal.preventDuplicateOrders,
            baseUrl,
          },
        ),
      }));
    } else if (list) {
      answer = {
        status: 200,
        body: await listShippingOrders(
          db,
          principal.accountId,
          parseQuery(listShippingOrdersOp.query, url, listShippingOrdersOp.arrays),
          baseUrl,
        ),
      };
    } else {
      answer = {
        status: 200,
        body: await getShippingOrder(db, principal.accountId, decodeURIComponent(getOne![1]!), baseUrl),
      };
    }
  } catch (error) {
    answer = await errorAnswer(error);
  }
  answer.headers = { ...rateLimitHeaders(rateLimit.state()), ...answer.headers };
  return answer;
}

/** An error as the app answers it: the same function renders it (status, problem or result body, headers). */
async function errorAnswer(error: unknown): Promise<Answer> {
  const response = errorResponse(error);
  const { "content-type": contentType, ...headers } = Object.fromEntries(response.headers);
  return { status: response.status, body: await response.json(), contentType, headers };
}

const server = http.createServer((req, res) => {
  route(req)
    .catch(errorAnswer)
    .then((answer) => send(res, answer));
});
server.keepAliveTimeout = 65_000;

const port = Number(process.env.PORT ?? 3999);
server.listen(port, "127.0.0.1", () => console.log(`baseline listening on ${port}`));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
