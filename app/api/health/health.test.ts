import { describe, expect, it } from "vitest";
import * as health from "./route";

describe("GET /api/health", () => {
  it("answers 200 {status: ok} when the database answers", async () => {
    const response = await health.GET(new Request("http://localhost/api/health"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers 400 naming an unknown query parameter", async () => {
    const response = await health.GET(new Request("http://localhost/api/health?verbose=1"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ field: "verbose" }] });
  });
});
