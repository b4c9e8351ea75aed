/**
 * The Packeta fake as its own process, for the e2e set-up and the bench:
 *
 *   npx tsx server/couriers/packeta/fake-server-main.ts --port 4010 --password <32 characters> [--delay-ms 150]
 *
 * (or `FAKE_PACKETA_PORT`, `FAKE_PACKETA_PASSWORD`, `FAKE_PACKETA_DELAY_MS`; port 0 or none: any free port). It
 * listens on 127.0.0.1, prints one JSON line `{ "url": … }` (the value for `COURIER_PACKETA_URL`) once it accepts
 * calls, and closes on SIGTERM or SIGINT. Packets are refused by reference (`REFUSE…`), as in `refuseByReference`.
 */
import { parseArgs } from "node:util";
import { serveUntilSignal } from "../fake-process";
import { startFakePacketa } from "./fake-server";

const { values } = parseArgs({
  options: { port: { type: "string" }, password: { type: "string" }, "delay-ms": { type: "string" } },
});
const port = Number(values.port ?? process.env.FAKE_PACKETA_PORT ?? 0);
const password = values.password ?? process.env.FAKE_PACKETA_PASSWORD;
const delayMs = Number(values["delay-ms"] ?? process.env.FAKE_PACKETA_DELAY_MS ?? 0);

if (!password || !Number.isInteger(port) || port < 0 || !Number.isFinite(delayMs) || delayMs < 0) {
  process.stderr.write(
    "usage: fake-server-main.ts --password <api password> [--port <n>] [--delay-ms <ms>] " +
      "(or FAKE_PACKETA_PASSWORD, FAKE_PACKETA_PORT, FAKE_PACKETA_DELAY_MS)\n",
  );
  process.exit(2);
}

serveUntilSignal(await startFakePacketa({ password, port, delayMs }));
