import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "@/server/operations";
import { call, readJson } from "@/test/helpers";
import { createPartner, type Partner } from "@/test/partner";

type Problem = { status: number; detail: string; errors?: { field: string; message: string }[] };

/** Every route module the app serves (the next-auth and tRPC doors and the /api/v2 catch-all aside). */
const routeFiles = readdirSync("app", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith("route.ts"))
  .filter((file) => !/api\/(auth\/\[\.\.\.nextauth\]|trpc|metrics)\//.test(file) && !file.includes("[...path]"));

const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"] as const;

describe("unknown query parameters", () => {
  let partner: Partner;
  beforeAll(async () => {
    partner = await createPartner();
  });

  it("answer 400 naming them on every route, before anything else runs, and list what its descriptor declares", async () => {
    let checked = 0;
    let described = 0;
    for (const file of routeFiles) {
      const mod = (await import(path.resolve("app", file))) as Record<string, unknown>;
      const urlPath = `/${file.replace(/\/route\.ts$/, "").replace("(dashboard)/", "")}`.replace(
        /\[(\w+)\]/g,
        (_, name: string) => (name === "courier_id" ? "sandbox" : randomUUID()),
      );
      for (const method of METHODS.filter((m) => typeof mod[m] === "function")) {
        const response = await call(mod[method], `${urlPath}?referenceSourc=x&page=1`, {
          method,
          // Both credentials: API-key routes read X-API-Key, private routes the bearer token.
          headers: { "x-api-key": partner.key, authorization: `Bearer ${partner.token}` },
          params: { id: randomUUID(), courier_id: "sandbox" },
        });
        const where = `${method} ${urlPath}`;
        expect(response.status, where).toBe(400);
        expect(response.headers.get("content-type"), where).toBe("application/problem+json");
        const problem = await readJson<Problem>(response);
        expect(
          problem.errors?.map((e) => e.field),
          where,
        ).toContain("referenceSourc");
        checked += 1;
        const template = `/${file.replace(/\/route\.ts$/, "")}`.replace(/\[(\w+)\]/g, "{$1}");
        const op = operations.find((o) => o.path === template && o.method.toUpperCase() === method);
        if (!op) continue;
        const names = Object.keys(op.query?.shape ?? {});
        expect(problem.detail, where).toContain(
          names.length ? `This operation accepts ${names.join(", ")}.` : "This operation takes none.",
        );
        described += 1;
      }
    }
    // Every operation of the document, and the dashboard's label door.
    expect(checked).toBeGreaterThanOrEqual(24);
    expect(described).toBe(operations.length);
  });

  it("name every unknown one and leave declared ones alone", async () => {
    const list = await import("@/app/api/v2/shipping-orders/route");
    const response = await call(list.GET, "/api/v2/shipping-orders?status=CREATED&referenceSourc=x&pagesize=2", {
      apiKey: partner.key,
    });
    expect(response.status).toBe(400);
    const problem = await readJson<Problem & { detail: string }>(response);
    expect(problem.errors).toEqual([
      { field: "referenceSourc", message: "is not a parameter of this operation" },
      { field: "pagesize", message: "is not a parameter of this operation" },
    ]);
    expect(problem.detail).toContain("referenceSource");
    expect(response.headers.get("ratelimit-limit")).not.toBeNull();
  });

  it("come after authentication: no credentials is still 401", async () => {
    const list = await import("@/app/api/v2/shipping-orders/route");
    expect((await call(list.GET, "/api/v2/shipping-orders?bogus=1")).status).toBe(401);
    const keys = await import("@/app/api/v2/private/api-keys/route");
    expect((await call(keys.GET, "/api/v2/private/api-keys?bogus=1")).status).toBe(401);
  });
});

describe("an unknown path under /api/v2", () => {
  it("answers 404 problem+json for every method", async () => {
    const catchAll = (await import("@/app/api/v2/[...path]/route")) as Record<string, unknown>;
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const response = await call(catchAll[method], "/api/v2/shiping-orders?x=1", { method });
      expect(response.status, method).toBe(404);
      expect(response.headers.get("content-type"), method).toBe("application/problem+json");
      expect(await readJson<{ detail: string }>(response)).toMatchObject({ status: 404 });
    }
  });
});
