/**
 * The PPL fake as its own process, for trying the app by hand and for a bench:
 *
 *   npx tsx server/couriers/ppl/fake-server-main.ts --port 4012 --client-id <id> --client-secret <secret> [--delay-ms 150] [--control]
 *
 * (or `FAKE_PPL_PORT`, `FAKE_PPL_CLIENT_ID`, `FAKE_PPL_CLIENT_SECRET`, `FAKE_PPL_DELAY_MS`; port 0 or none: any free
 * port). It listens on 127.0.0.1, prints one JSON line `{ "url": … }` (the value for `COURIER_PPL_URL`) once it
 * accepts calls, and closes on SIGTERM or SIGINT.
 */
import { parseArgs } from "node:util";
import { serveUntilSignal } from "../fake-process";
import { startFakePpl } from "./fake-server";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
    "delay-ms": { type: "string" },
    control: { type: "boolean" },
  },
});
const port = Number(values.port ?? process.env.FAKE_PPL_PORT ?? 0);
const clientId = values["client-id"] ?? process.env.FAKE_PPL_CLIENT_ID;
const clientSecret = values["client-secret"] ?? process.env.FAKE_PPL_CLIENT_SECRET;
const delayMs = Number(values["delay-ms"] ?? process.env.FAKE_PPL_DELAY_MS ?? 0);

if (!clientId || !clientSecret || !Number.isInteger(port) || port < 0 || !Number.isFinite(delayMs) || delayMs < 0) {
  process.stderr.write(
    "usage: fake-server-main.ts --client-id <id> --client-secret <secret> [--port <n>] [--delay-ms <ms>] " +
      "(or FAKE_PPL_CLIENT_ID, FAKE_PPL_CLIENT_SECRET, FAKE_PPL_PORT, FAKE_PPL_DELAY_MS)\n",
  );
  process.exit(2);
}

// --control (or FAKE_PPL_CONTROL=1): faults switched at run time and the ledger of shipments (fake-server.ts `control`).
const control = values.control ?? process.env.FAKE_PPL_CONTROL === "1";

serveUntilSignal(await startFakePpl({ clientId, clientSecret, port, delayMs, control }));
