import { describe, expect, it } from "vitest";
import * as health from "./route";

// This file's process talks to a PostgreSQL that is not there (the db module opens lazily, on first use).
process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/nothing";

describe("GET /api/health without a database", () => {
  it("answers 503", async () => {
    const response = await health.GET(new Request("http://localhost/api/health"));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable" });
  });
});
