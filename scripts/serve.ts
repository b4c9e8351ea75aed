import { parseArgs } from "node:util";
import { env } from "@/server/env";
import { startAppServer } from "@/server/http/app-server";
import { trustProxies } from "@/server/http/client-address";
import { logger } from "@/server/observability/logger";

// The production HTTP server (what `npm start` runs once migrations are applied): the built app from `.next` (or
// from the directory given), behind our own node:http server (server/http/app-server.ts). Options as `next start`'s:
// `--port`/`-p` (else PORT, else 3000), `--hostname`/`-H` (else every interface).
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV || "production" });
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
});
const { TRUSTED_PROXIES } = env();
const { url } = await startAppServer({
  dir: positionals[0],
  port: Number(values.port ?? process.env.PORT ?? 3000),
  hostname: values.hostname,
  trust: trustProxies(TRUSTED_PROXIES),
});
logger.info({ url, trustedProxies: TRUSTED_PROXIES }, "listening");
