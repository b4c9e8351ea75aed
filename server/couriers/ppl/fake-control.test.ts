import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakePpl, type FakePpl } from "./fake-server";

/**
 * The fake's control endpoints (option `control`), which the invariant suite uses on the fake as a process: faults
 * switched at run time and the ledger of what the fake registered.
 */

const batchBody = readFileSync(path.join(import.meta.dirname, "fixtures", "create-batch.request.json"), "utf8");
let fake: FakePpl | null = null;

afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function start(control: boolean) {
  fake = await startFakePpl({ clientId: "id", clientSecret: "secret", control });
  const origin = new URL(fake.url).origin;
  const token = await fetch(`${fake.url}/login/getAccessToken`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=myapi2&client_id=id&client_secret=secret",
  }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
  const register = (signal?: AbortSignal) =>
    fetch(`${fake!.url}/shipment/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: batchBody,
      signal,
    });
  const fault = (body: unknown) =>
    fetch(`${origin}/__fake/fault`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const ledger = async () =>
    ((await (await fetch(`${origin}/__fake/ledger`)).json()) as { shipments: { phase: string }[] }).shipments;
  return { register, fault, ledger, token };
}

describe("the fake PPL's control endpoints", () => {
  it("cut: registers the batch and resets the connection instead of answering", async () => {
    const { register, fault, ledger } = await start(true);
    expect((await fault({ fault: "cut" })).status).toBe(204);
    await expect(register()).rejects.toThrow();
    const registered = await ledger();
    expect(registered.length).toBeGreaterThan(0);
    expect(registered.every((s) => s.phase === "Order")).toBe(true);
    expect((await fault({ fault: "ok" })).status).toBe(204);
    expect((await register()).status).toBe(201);
  });

  it("late: registers the batch even when the caller gave up before the answer", async () => {
    const { register, fault, ledger } = await start(true);
    await fault({ fault: "late", lateMs: 800 });
    await expect(register(AbortSignal.timeout(100))).rejects.toThrow();
    const deadline = Date.now() + 5000;
    while ((await ledger()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await ledger()).length).toBeGreaterThan(0);
  });

  it("next-registration: answers once a batch has been registered and its 201 sent", async () => {
    const { register, fault } = await start(true);
    // Registered 300 ms after the POST: the waiter below is surely waiting by then.
    await fault({ fault: "late", lateMs: 300 });
    const origin = new URL(fake!.url).origin;
    const told = fetch(`${origin}/__fake/next-registration`).then(
      async (r) => ((await r.json()) as { registered: boolean }).registered,
    );
    expect((await register()).status).toBe(201);
    expect(await told).toBe(true);
  });

  it("in-process: a batch registered during the fault stays InProcess until the fault ends", async () => {
    const { register, fault, token } = await start(true);
    await fault({ fault: "in-process" });
    const location = (await register()).headers.get("location")!;
    const state = async () => {
      const read = await fetch(location, { headers: { authorization: `Bearer ${token}` } });
      return ((await read.json()) as { items: { importState: string }[] }).items[0]!.importState;
    };
    for (let i = 0; i < 40; i++) expect(await state()).toBe("InProcess");
    await fault({ fault: "ok" });
    expect(await state()).toBe("Complete");
  });

  it("refuses an unknown fault, and has no control routes without the option", async () => {
    const { fault } = await start(true);
    expect((await fault({ fault: "sometimes" })).status).toBe(400);
    await fake!.close();
    const plain = await start(false);
    // Without it the path is no route of PPL's (refused as PPL refuses a call without a token), and no fault is set.
    expect((await plain.fault({ fault: "cut" })).status).toBe(401);
    expect((await plain.register()).status).toBe(201);
  });
});
