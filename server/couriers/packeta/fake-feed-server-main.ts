/**
 * Packeta's fake v5 feeds as their own process, for the bench (the sync's memory is then measured without the
 * feed's) and anyone who wants them on a port:
 *
 *   npx tsx server/couriers/packeta/fake-feed-server-main.ts --api-key <16 characters> [--port 4020] [--count 100000]
 *
 * It listens on 127.0.0.1, prints one JSON line `{ "url": … }` (the value for `PACKETA_FEED_URL`) once it accepts
 * calls, and closes on SIGTERM or SIGINT.
 */
import { parseArgs } from "node:util";
import { serveUntilSignal } from "../fake-process";
import { startFakePacketaFeed } from "./fake-feed-server";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "api-key": { type: "string" },
    count: { type: "string" },
    seed: { type: "string" },
  },
});
const port = Number(values.port ?? 0);
const apiKey = values["api-key"];
const count = values.count === undefined ? undefined : Number(values.count);
const seed = values.seed === undefined ? undefined : Number(values.seed);

if (!apiKey || !Number.isInteger(port) || port < 0 || (count !== undefined && !(count >= 0))) {
  process.stderr.write(
    "usage: fake-feed-server-main.ts --api-key <16 characters> [--port <n>] [--count <n>] [--seed <n>]\n",
  );
  process.exit(2);
}

serveUntilSignal(await startFakePacketaFeed({ apiKey, port, count, seed }));
