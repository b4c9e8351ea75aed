import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CourierError } from "./adapter";
import { callPacketa } from "./packeta/client";
import { callPpl, clearPplTokens, pplAccessToken } from "./ppl/client";
import type { PplSettings } from "./ppl/settings";

/** A local HTTP server whose handler each test sets; it records every request with its body. */
async function localServer() {
  const received: { method: string; url: string; body: string }[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    on: (h: typeof handler) => (handler = h),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const PASSWORD = "0123456789abcdef0123456789abcdef";
const SECRET = "ppl-client-secret-never-elsewhere";
const pplSettings: PplSettings = { clientId: "client-1", clientSecret: SECRET };
const signal = () => AbortSignal.timeout(10_000);
const ELEVEN_MIB = 11 * 1024 * 1024;

/** What a call rejected with (the CourierError's code and message). */
async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof CourierError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("the call succeeded");
}

let courier: Awaited<ReturnType<typeof localServer>>;
/** Another origin the courier's 307 points at: it must never see a request. */
let elsewhere: Awaited<ReturnType<typeof localServer>>;
beforeAll(async () => {
  courier = await localServer();
  elsewhere = await localServer();
  elsewhere.on((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end('{"access_token":"stolen","expires_in":1800}'),
  );
  process.env.COURIER_PACKETA_URL = `${courier.url}/api/rest`;
  process.env.COURIER_PPL_URL = courier.url;
});
afterAll(async () => {
  await courier.close();
  await elsewhere.close();
});
afterEach(() => {
  courier.received.length = 0;
  elsewhere.received.length = 0;
  clearPplTokens();
});

const redirect = (status: number) => (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(status, { location: `${elsewhere.url}/collect` }).end();

/** An answer that never ends: 64 KiB chunks until the client goes away. */
const endless = (contentType: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": contentType });
  const chunk = Buffer.alloc(64 * 1024, "a");
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", write);
  };
  write();
};

describe("courier HTTP: no redirect followed", () => {
  it.each([301, 302, 307, 308])(
    "Packeta answering %i: COURIER_UNAVAILABLE, and the API password goes nowhere else",
    async (status) => {
      courier.on(redirect(status));
      const error = await refusal(callPacketa("packetStatus", PASSWORD, { packetId: "1" }, signal()));
      expect(error.code).toBe("COURIER_UNAVAILABLE");
      expect(error.message).toMatch(new RegExp(`redirect \\(HTTP ${status}\\)`));
      expect(error.message).not.toContain(PASSWORD);
      expect(courier.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
    },
  );

  it("PPL's token endpoint answering 307: COURIER_UNAVAILABLE, and the client secret goes nowhere else", async () => {
    courier.on(redirect(307));
    const error = await refusal(pplAccessToken(pplSettings, signal()));
    expect(error.code).toBe("COURIER_UNAVAILABLE");
    expect(courier.received.map((r) => r.url)).toEqual(["/login/getAccessToken"]);
    expect(courier.received[0]!.body).toContain("client_secret=");
    expect(elsewhere.received).toEqual([]);
  });

  it("a PPL API call answering 307: COURIER_UNAVAILABLE, and the bearer token goes nowhere else", async () => {
    courier.on((req, res) => {
      if (req.url === "/login/getAccessToken")
        res.writeHead(200, { "content-type": "application/json" }).end('{"access_token":"t-1","expires_in":1800}');
      else redirect(307)(req, res);
    });
    const error = await refusal(callPpl(pplSettings, signal(), { method: "GET", path: "/shipment/batch/b-1" }));
    expect(error.code).toBe("COURIER_UNAVAILABLE");
    expect(courier.received.map((r) => r.url)).toEqual(["/login/getAccessToken", "/shipment/batch/b-1"]);
    expect(elsewhere.received).toEqual([]);
  });
});

describe("courier HTTP: answers read up to 10 MiB", () => {
  it("Packeta: an endless answer is cut past 10 MiB (COURIER_UNAVAILABLE), not read to the end", async () => {
    courier.on(endless("application/xml"));
    const error = await refusal(callPacketa("packetStatus", PASSWORD, { packetId: "1" }, signal()));
    expect(error).toEqual({ code: "COURIER_UNAVAILABLE", message: expect.stringContaining("more than 10 MiB") });
  });

  it("PPL: an endless answer is cut past 10 MiB, and one that declares 11 MiB is refused unread", async () => {
    courier.on(endless("application/json"));
    expect(await refusal(pplAccessToken(pplSettings, signal()))).toEqual({
      code: "COURIER_UNAVAILABLE",
      message: expect.stringContaining("more than 10 MiB"),
    });
    courier.on((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(ELEVEN_MIB) });
      res.write("{");
    });
    expect(await refusal(pplAccessToken(pplSettings, signal()))).toEqual({
      code: "COURIER_UNAVAILABLE",
      message: expect.stringContaining("more than 10 MiB"),
    });
  });

  it("an answer of just under 10 MiB is read whole", async () => {
    const token = "x".repeat(10 * 1024 * 1024 - 64);
    courier.on((_req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ access_token: token, expires_in: 1800 })),
    );
    expect(await pplAccessToken(pplSettings, signal())).toBe(token);
  });
});
