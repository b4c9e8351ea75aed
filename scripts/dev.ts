import "./dev-data-dir";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import pretty from "pino-pretty";
import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { DEMO, seedDemo, signInBanner } from "@/db/seed";
import { startFakePacketaFeed } from "@/server/couriers/packeta/fake-feed-server";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { env } from "@/server/env";

// Migrate and seed, then hand the (embedded) database over to Next: PGlite allows one process per data
// directory, so this process closes it before Next opens it.
const port = process.env.PORT ?? "3000";
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const { AUTH_SECRET, SECRETS_KEY, PUBLIC_URL, WEBHOOK_TIMEOUT_MS } = env();

// Packeta and PPL: unless the operator points the app at real ones, local fakes (the tests' own, on 127.0.0.1) run in
// this process for as long as the app does, and the demo partner gets profiles with their credentials.
const fakeCouriers = !process.env.COURIER_PACKETA_URL && !process.env.COURIER_PPL_URL;
const courierUrls: Record<string, string> = {};
if (fakeCouriers) {
  // Their shipments move a step every 2 minutes, as the demo's sandbox profile does (db/seed.ts).
  const clock = { stepMinutes: 2 };
  const packeta = await startFakePacketa({ password: DEMO.packeta.apiPassword, clock });
  const ppl = await startFakePpl({ clientId: DEMO.ppl.clientId, clientSecret: DEMO.ppl.clientSecret, clock });
  courierUrls.COURIER_PACKETA_URL = packeta.url;
  courierUrls.COURIER_PPL_URL = ppl.url;
  courierUrls.COURIER_PPL_TEST_URL = ppl.url;
}

// The pickup-point directory: without the operator's own credentials, the worker syncs the synthetic directory
// (DEFAULT_SYNTHETIC_COUNT points per courier) from local fakes of Packeta's feeds and PPL's /accessPoint, so the
// picker and the widget have points with no courier account.
const directoryUrls: Record<string, string> = {};
if (!process.env.PACKETA_API_KEY) {
  const demoKey = "demo0123456789ab";
  const feed = await startFakePacketaFeed({ apiKey: demoKey });
  directoryUrls.PACKETA_API_KEY = demoKey;
  directoryUrls.PACKETA_FEED_URL = feed.url;
}
if (fakeCouriers && !process.env.PPL_DIRECTORY_CLIENT_ID) {
  directoryUrls.PPL_DIRECTORY_CLIENT_ID = DEMO.ppl.clientId;
  directoryUrls.PPL_DIRECTORY_CLIENT_SECRET = DEMO.ppl.clientSecret;
}

await migrate();
await seedDemo(await getDb(), { fakeCouriers });
await closeDb();
console.log(signInBanner(`http://localhost:${port}`));
if (fakeCouriers)
  console.log(
    `  Couriers:   Packeta and PPL are local fakes (${courierUrls.COURIER_PACKETA_URL}, ${courierUrls.COURIER_PPL_URL});\n` +
      "              set COURIER_PACKETA_URL / COURIER_PPL_URL to use real ones.\n",
  );
if (directoryUrls.PACKETA_FEED_URL || directoryUrls.PPL_DIRECTORY_CLIENT_ID)
  console.log(
    "  Pickup points: the worker syncs the synthetic directory from local fakes; set PACKETA_API_KEY and\n" +
      "              PPL_DIRECTORY_CLIENT_ID / PPL_DIRECTORY_CLIENT_SECRET to sync the couriers' own.\n",
  );

// Node runs Next directly (no npx in between) so signals reach it and it can drain in-flight requests.
const child = spawn(process.execPath, [nextBin, "dev", "--port", port, ...process.argv.slice(2)], {
  // The app logs JSON lines; in development they are shown readable (pino-pretty passes other lines through).
  stdio: ["inherit", "pipe", "inherit"],
  env: {
    ...process.env,
    AUTH_SECRET,
    SECRETS_KEY,
    NEXTAUTH_SECRET: AUTH_SECRET,
    PUBLIC_URL,
    NEXTAUTH_URL: PUBLIC_URL,
    // A receiver on this machine (http://localhost:...) is the usual development target; production never defaults to it.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? "true",
    // `next dev` kills its server 100 ms after passing Ctrl-C on: long enough for the server's own stop (the worker's
    // webhook attempts in flight, server/jobs/web-process.ts); a second Ctrl-C still ends it at once.
    NEXT_EXIT_TIMEOUT_MS: process.env.NEXT_EXIT_TIMEOUT_MS ?? String(2 * (WEBHOOK_TIMEOUT_MS + 5000) + 5000),
    ...courierUrls,
    ...directoryUrls,
  },
});
child.stdout!.pipe(pretty({ colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" }));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
