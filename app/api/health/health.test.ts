import { describe, expect, it } from "vitest";
import * as health from "./route";

describe("GET /api/health", () => {
  it("answers 200 {status: ok} when the database answers", async () => {
    const response = await health.GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
