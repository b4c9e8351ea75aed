import { describe, expect, it } from "vitest";
import { isCrossSite } from "./same-origin";

process.env.PUBLIC_URL = "http://app.example";

const request = (headers: Record<string, string>) =>
  new Request("http://app.example/api/trpc/apiKeys.revoke", {
    method: "POST",
    headers: { host: "app.example", ...headers },
  });

describe("isCrossSite", () => {
  it("refuses what the browser marks as coming from another site or origin", () => {
    expect(isCrossSite(request({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSite(request({ "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSite(request({ origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSite(request({ origin: "null" }))).toBe(true);
  });

  it("compares an Origin with PUBLIC_URL, never with the Host or X-Forwarded-Host the request names", () => {
    const forged = { origin: "https://evil.example", host: "evil.example", "x-forwarded-host": "evil.example" };
    expect(isCrossSite(request(forged))).toBe(true);
  });

  it("lets same-origin browser requests and non-browser callers through", () => {
    expect(isCrossSite(request({ "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSite(request({ origin: "http://app.example" }))).toBe(false);
    expect(isCrossSite(request({}))).toBe(false);
  });
});
