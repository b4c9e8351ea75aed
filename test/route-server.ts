/**
 * The app's route handlers behind node:http, for fault tests that need the app in a process of its own: the
 * database module is a process-wide singleton bound to DATABASE_URL at first use, so a test pointing the app
 * at a throwaway cluster runs it here (`tsx test/route-server.ts`). Prints `{"port":N}` once listening; a
 * handler that throws (which the app's wrapper should make impossible) answers 599 so the test can tell.
 */
import { createServer } from "node:http";
import * as health from "@/app/api/health/route";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as orderItem from "@/app/api/v2/shipping-orders/[id]/route";
import * as list from "@/app/api/v2/shipping-orders/route";
import { closeDb } from "@/db/client";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Route = { method: string; pattern: RegExp; handler: Handler };

const routes: Route[] = [
  { method: "GET", pattern: /^\/api\/health$/, handler: health.GET as Handler },
  {
    method: "POST",
    pattern: /^\/api\/v2\/couriers\/(?<courier_id>[^/]+)\/shipping-orders$/,
    handler: create.POST as Handler,
  },
  { method: "GET", pattern: /^\/api\/v2\/shipping-orders$/, handler: list.GET as Handler },
  { method: "GET", pattern: /^\/api\/v2\/shipping-orders\/(?<id>[^/]+)$/, handler: orderItem.GET as Handler },
  { method: "DELETE", pattern: /^\/api\/v2\/shipping-orders\/(?<id>[^/]+)$/, handler: orderItem.DELETE as Handler },
];

const server = createServer((req, res) => {
  void (async () => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const method = req.method ?? "GET";
      const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname));
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      const params = Object.fromEntries(
        Object.entries(route.pattern.exec(url.pathname)?.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]),
      );
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
      }
      const hasBody = method !== "GET" && method !== "HEAD" && chunks.length > 0;
      const request = new Request(url, { method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
      const response = await route.handler(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res
        .writeHead(599, { "content-type": "text/plain" })
        .end(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  })();
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : null }));
});

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  void closeDb().finally(() => process.exit(0));
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
