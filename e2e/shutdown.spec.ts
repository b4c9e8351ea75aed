import { spawn } from "node:child_process";
import { E2E_PORT } from "./environment";
import { expect, orderBody, test } from "./fixtures";

/**
 * SIGTERM to `npm start` (scripts/start.ts → next start, production build, the e2e database): the request in flight
 * is answered, new connections are refused, and the process exits 0. A second server of its own, on another port.
 */
test("on SIGTERM the server answers the request in flight, takes no new one, and exits 0", async ({
  apiKey,
  sandboxProfile: profile,
}) => {
  test.setTimeout(120_000);
  const port = E2E_PORT + 17;
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, PORT: String(port), WORKER: "off", NEXTAUTH_URL: base, COURIER_TIMEOUT_MS: "2000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await expect
      .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
      .toBe(200);
    // The sandbox never answers a COURIER-TIMEOUT order: this create runs for the profile's timeout (2 s here).
    const inFlight = fetch(`${base}/api/v2/couriers/sandbox/shipping-orders?profile=${profile.id}`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/svc.shipping-order+json" },
      body: JSON.stringify(orderBody({ ReferenceNumber: `COURIER-TIMEOUT-${Date.now()}` })),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill("SIGTERM");
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { failed: { code: string }[] }).failed).toEqual([
      expect.objectContaining({ code: "COURIER_TIMEOUT" }),
    ]);
    expect(await exited, output.slice(-2000)).toBe(0);
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});
