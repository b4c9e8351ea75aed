import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { withClientAddress } from "@/server/http/with-client-address";
import type { TrustProxy } from "@/server/http/client-address";

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Node's request as the fetch `Request` a route handler gets (what Next does between the two). */
async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" || chunks.length === 0 ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? "/", "http://127.0.0.1"), { method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * A route handler behind the front of the app's production server (`withClientAddress`: the part that decides the
 * client's address) on a real node:http server on 127.0.0.1, for tests of what that server decides: real sockets,
 * real peers, real headers. Next's own routing is left out; scripts/serve.ts puts Next's handler where this puts one
 * route's.
 */
export async function serveBehindFront(trust: TrustProxy, handler: RouteHandler) {
  const server = createServer(
    withClientAddress(trust, async (req, res) =>
      send(res, await handler(await toRequest(req), { params: Promise.resolve({}) })),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One request from `localAddress` (any 127.0.0.0/8 address is this machine's), on a connection of its own. */
export function requestFrom(
  port: number,
  localAddress: string,
  init: { method?: string; path?: string; headers?: Record<string, string | string[]>; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: init.path ?? "/",
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        localAddress,
        agent: false,
        headers: init.headers,
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A loopback address of its own for a test (any of 127.0.0.0/8 but 127.0.0.1, which every other test uses). */
export const loopbackPeer = () =>
  `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${2 + Math.floor(Math.random() * 253)}`;
