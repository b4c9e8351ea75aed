/**
 * The fake PPL as a process of the run (`server/couriers/ppl/fake-server-main.ts --control`, as the e2e set-up starts
 * the fake Packeta): the platform's processes reach it through COURIER_PPL_URL; the nemesis switches its faults
 * through `/__fake/fault`; the checker reads its ledger of registered shipments through `/__fake/ledger`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { waitUntil } from "./random";

export const PPL_CLIENT_ID = "invariants-ppl";
export const PPL_CLIENT_SECRET = "invariants-ppl-secret-0001";
/** The courier tenant's PPL profile timeout: a `late` answer comes after it. */
export const PPL_TIMEOUT_MS = 3000;

export type CourierFault = "ok" | "late" | "cut" | "hang" | "in-process";

export type LedgerShipment = {
  shipmentNumber: string;
  referenceId: string;
  customerReference: string;
  master: string;
  phase: string;
};

export type FakeCourier = {
  url: string;
  setFault(fault: CourierFault, options?: { lateMs?: number }): Promise<void>;
  ledger(): Promise<LedgerShipment[]>;
  /** Resolves once the fake has registered the next batch and sent its 201 (false: none within 20 s). */
  nextRegistration(): Promise<boolean>;
  stop(): Promise<void>;
};

export async function startFakePplProcess(logDir: string): Promise<FakeCourier> {
  const log = createWriteStream(path.join(logDir, "fake-ppl.log"), { flags: "a" });
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.resolve("server/couriers/ppl/fake-server-main.ts"),
      "--client-id",
      PPL_CLIENT_ID,
      "--client-secret",
      PPL_CLIENT_SECRET,
      "--delay-ms",
      "100",
      "--control",
    ],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stderr!.pipe(log, { end: false });
  let base = "";
  let buffered = "";
  child.stdout!.on("data", (c: Buffer) => {
    log.write(c);
    buffered += c.toString();
    const line = buffered.split("\n").find((l) => l.startsWith("{"));
    if (line && !base) base = (JSON.parse(line) as { url: string }).url;
  });
  if (!(await waitUntil(() => Boolean(base) || child.exitCode !== null, 60_000, 100)) || !base)
    throw new Error(`the fake PPL did not start (log ${path.join(logDir, "fake-ppl.log")})`);
  const origin = new URL(base).origin;
  return {
    url: base,
    async setFault(fault, options = {}) {
      const res = await fetch(`${origin}/__fake/fault`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fault, ...options }),
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status !== 204) throw new Error(`the fake PPL refused fault ${fault}: ${res.status} ${await res.text()}`);
    },
    async ledger() {
      const res = await fetch(`${origin}/__fake/ledger`, { signal: AbortSignal.timeout(10_000) });
      return ((await res.json()) as { shipments: LedgerShipment[] }).shipments;
    },
    async nextRegistration() {
      const res = await fetch(`${origin}/__fake/next-registration`, { signal: AbortSignal.timeout(30_000) });
      return ((await res.json()) as { registered: boolean }).registered;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        if (!(await waitUntil(() => child.exitCode !== null || child.signalCode !== null, 5000, 100)))
          child.kill("SIGKILL");
      }
      log.end();
    },
  };
}
