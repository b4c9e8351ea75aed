import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { logger } from "@/server/observability/logger";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, type TrustProxy } from "./client-address";

export type Handle = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/**
 * The front of the app's HTTP server: every request loses any `x-sop-client-address` a client sent and gets the one
 * this server determined from its socket (and the operator's trusted proxies), then goes on to `handle`. What it
 * hands on is everything the app knows about the client's address; nothing patched into Next is involved.
 */
export function withClientAddress(trust: TrustProxy, handle: Handle): RequestListener {
  return (req, res) => {
    delete req.headers[CLIENT_ADDRESS_HEADER];
    const address = clientAddressOf(req, trust);
    if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
    Promise.resolve()
      .then(() => handle(req, res))
      .catch((error: unknown) => {
        logger.error({ err: error, url: req.url }, "the request handler failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end("Internal Server Error");
      });
  };
}
