import { createServer, type Server } from "node:http";
import next from "next";
import { logger } from "@/server/observability/logger";
import { CLIENT_ADDRESS_HEADER, type TrustProxy } from "./client-address";
import { withPreflights } from "./preflight";
import { withUnauthenticatedPageLimit } from "./unauthenticated-page-limit";
import { withClientAddress, type Handle } from "./with-client-address";

export type AppServerOptions = {
  /** The app's directory (its `.next` build); the working directory when absent. */
  dir?: string;
  port: number;
  /** Where to listen; every interface when absent (as `next start`). */
  hostname?: string;
  trust: TrustProxy;
};

export type AppServer = { server: Server; url: string };

/**
 * The production server: Next's request handler (`next({ dev: false })`, a built app) behind a node:http server of
 * ours, so the client's address is taken from the socket in this code (`withClientAddress`).
 *
 * It stops as `next start` does, and in the same order of things: on SIGTERM or SIGINT it stops taking connections,
 * lets the requests in flight finish, closes Next and exits 143 (130 after SIGINT). That handler is installed before
 * Next loads instrumentation.ts, whose web process (server/jobs/web-process.ts) takes it off the signal and runs it
 * last, after readiness has turned 503 and the worker has stopped, and bounds it by SHUTDOWN_TIMEOUT_MS.
 */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  let handle: Handle = () => {
    throw new Error("the server is not prepared yet");
  };
  const server = createServer(
    withClientAddress(
      options.trust,
      withPreflights(
        withUnauthenticatedPageLimit(
          (req) => (req.headers[CLIENT_ADDRESS_HEADER] as string | undefined) ?? null,
          (req, res) => handle(req, res),
        ),
      ),
    ),
  );
  const app = next({
    dev: false,
    dir: options.dir,
    hostname: options.hostname,
    port: options.port,
    httpServer: server,
  });

  let stopping = false;
  const stop = (signal: "SIGTERM" | "SIGINT") => {
    if (stopping) return;
    stopping = true;
    void new Promise<void>((resolve) => server.close(() => resolve()))
      .then(() => app.close())
      .catch((error: unknown) => logger.error({ err: error }, "stopping: the server did not close cleanly"))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  await app.prepare();
  handle = app.getRequestHandler();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return { server, url: `http://${options.hostname ?? "localhost"}:${port}` };
}
