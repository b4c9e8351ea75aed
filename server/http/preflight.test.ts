import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { PREFLIGHT_HEADERS, preflight, withPreflights } from "./preflight";

describe("preflights at the front of the app's server", () => {
  it("answers the publishable-key routes' OPTIONS itself, as the routes do, and passes everything else to Next", async () => {
    const passed: string[] = [];
    const server = createServer(
      withPreflights((req, res) => {
        passed.push(`${req.method} ${req.url}`);
        res.end("next");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ask = (method: string, path: string) =>
        fetch(`${base}${path}`, {
          method,
          headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
        });
      for (const path of [
        "/api/v2/couriers/packeta/pickup-points",
        "/api/v2/couriers/ppl/pickup-points?q=plzen&near=49.7,13.3",
        "/api/v2/couriers/packeta/pickup-points/1234",
      ]) {
        const answer = await ask("OPTIONS", path);
        expect(answer.status, path).toBe(204);
        const headers = Object.fromEntries(answer.headers);
        expect(headers).toMatchObject(PREFLIGHT_HEADERS);
        expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(passed).toEqual([]);
      await ask("GET", "/api/v2/couriers/packeta/pickup-points");
      await ask("OPTIONS", "/api/v2/shipping-orders");
      await ask("OPTIONS", "/api/v2/couriers/packeta/pickup-points/1234/more");
      expect(passed).toEqual([
        "GET /api/v2/couriers/packeta/pickup-points",
        "OPTIONS /api/v2/shipping-orders",
        "OPTIONS /api/v2/couriers/packeta/pickup-points/1234/more",
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The routes' own answer (npm run dev has no front) is the same.
    expect(Object.fromEntries(preflight().headers)).toEqual(PREFLIGHT_HEADERS);
  });
});
