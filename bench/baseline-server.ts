/**
 * The benchmark's baseline: the same services the app's create and get routes call (verifyApiKey,
 * createShippingOrders, getShippingOrder), behind a bare `node:http` server with no framework. The ratio
 * app ÷ baseline is what the framework (Next's router, Web Request/Response, middleware) costs.
 *
 * Started by bench/run.ts as `node --import tsx bench/baseline-server.ts` with PORT, DATABASE_URL,
 * AUTH_SECRET and NODE_ENV=production in the environment. Same pool settings as the app (db/client.ts).
 */
import http from "node:http";
import { getDb } from "@/db/client";
import { AppError, httpStatusOf } from "@/server/errors";
import type { ApiKeyPermission } from "@/server/services/api-keys/schemas";
import { verifyApiKey, type ApiKeyPrincipal } from "@/server/services/api-keys/verify-api-key";
import { createShippingOrders } from "@/server/services/shipping-orders/create-shipping-orders";
import { getShippingOrder } from "@/server/services/shipping-orders/get-shipping-order";
import { orderBatch } from "@/server/services/shipping-orders/order-batch";

const MAX_BODY = 1024 * 1024;
const CREATE = /^\/api\/v2\/couriers\/([^/]+)\/shipping-orders$/;
const GET_ONE = /^\/api\/v2\/shipping-orders\/([^/]+)$/;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new AppError("payload_too_large", "body over 1 MiB"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function principalOf(req: http.IncomingMessage, permission: ApiKeyPermission): Promise<ApiKeyPrincipal> {
  const header = req.headers["x-api-key"];
  const key =
    (typeof header === "string" ? header.trim() : "") ||
    /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  const principal = key ? await verifyApiKey(await getDb(), key) : null;
  if (!principal) throw new AppError("unauthorized", "The API key is unknown or revoked.");
  if (!principal.permissions.includes(permission))
    throw new AppError("forbidden", `The API key lacks the permission ${permission}.`);
  return principal;
}

async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const baseUrl = url.origin;
  if (req.method === "GET" && url.pathname === "/health") return send(res, 200, { status: "ok" });

  const create = req.method === "POST" ? CREATE.exec(url.pathname) : null;
  if (create) {
    const principal = await principalOf(req, "shipping-orders:write");
    const mediaType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("bad_request", "The request body is not valid JSON.");
    }
    const result = await createShippingOrders(
      await getDb(),
      { accountId: principal.accountId, apiKeyId: principal.keyId },
      {
        courierId: decodeURIComponent(create[1]!),
        profileId: url.searchParams.get("profile"),
        batch: orderBatch(mediaType, body),
        preventDuplicateOrders: principal.preventDuplicateOrders,
        baseUrl,
      },
    );
    return send(res, 200, result);
  }

  const getOne = req.method === "GET" ? GET_ONE.exec(url.pathname) : null;
  if (getOne) {
    const principal = await principalOf(req, "shipping-orders:read");
    return send(
      res,
      200,
      await getShippingOrder(await getDb(), principal.accountId, decodeURIComponent(getOne[1]!), baseUrl),
    );
  }
  send(res, 404, { status: 404, detail: "not found" });
}

const server = http.createServer((req, res) => {
  route(req, res).catch((error: unknown) => {
    if (error instanceof AppError)
      return send(
        res,
        httpStatusOf[error.code],
        error.details.result ?? { status: httpStatusOf[error.code], detail: error.message },
      );
    console.error(error);
    send(res, 500, { status: 500, detail: "internal error" });
  });
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
