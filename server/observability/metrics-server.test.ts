import type { AddressInfo } from "node:net";
import { request, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createMetricsServer } from "./metrics-server";

const TOKEN = "worker-metrics-token-0123456789";

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

/** The worker's metrics server on a free port, over real HTTP. */
async function start(token: string | undefined): Promise<string> {
  server = createMetricsServer({ token, refresh: async () => {} });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const scrape = (base: string, authorization?: string) =>
  fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

describe("a worker's GET /metrics", () => {
  it("answers only the bearer of METRICS_TOKEN", async () => {
    const base = await start(TOKEN);
    const ok = await scrape(base, `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("sop_http_requests_total");
    for (const wrong of [undefined, "Bearer nope", `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(1)}`]) {
      const refused = await scrape(base, wrong);
      expect(refused.status, wrong).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    }
    expect((await fetch(`${base}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it("is closed, 404 as the web's /api/metrics, when no METRICS_TOKEN is set", async () => {
    const base = await start(undefined);
    expect((await scrape(base)).status).toBe(404);
    expect((await scrape(base, "Bearer anything")).status).toBe(404);
  });

  it("refuses a token of multi-byte characters as it refuses any other (as many characters as the real one)", async () => {
    const base = await start(TOKEN);
    // Sent as Latin-1 bytes, each of which is two bytes in UTF-8: same length in characters, not in bytes.
    const response = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/metrics`, { headers: { authorization: `Bearer ${"é".repeat(TOKEN.length)}` } });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(response).toBe(401);
  });
});
