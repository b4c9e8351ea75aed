import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, readJson } from "@/test/helpers";
import { json } from "./handler";
import { operation, route } from "./operation";

const op = operation({
  method: "post",
  path: "/api/v2/things/{thing_id}",
  operationId: "changeThing",
  tag: "Things",
  summary: "Change a thing",
  description: "A descriptor made for this test.",
  auth: "none",
  query: z.object({ page: z.string().default("1"), tags: z.array(z.string()).optional() }),
  arrays: ["tags"],
  body: {
    content: { "application/json": { schema: z.object({}) }, "application/merge-patch+json": { schema: z.object({}) } },
  },
  responses: { 200: { description: "The thing." } },
});

/** Answers what the wrapper handed it, then spoils its query (which must not reach the next request). */
const POST = route(op, async ({ query, body, params }) => {
  const answer = json({ query, body, params });
  query.page = "spoilt";
  return answer;
});

describe("route(op, fn)", () => {
  it("hands the handler the path parameters, the query parsed with the descriptor's schema and the body", async () => {
    const response = await call(POST, "/api/v2/things/t1?page=2&tags=a,b&tags=c", {
      body: { name: "x" },
      params: { thing_id: "t1" },
    });
    expect(await readJson(response)).toEqual({
      query: { page: "2", tags: ["a", "b", "c"] },
      body: { name: "x" },
      params: { thing_id: "t1" },
    });
  });

  it("gives every request without a query its own copy of the defaults", async () => {
    for (let i = 0; i < 2; i++) {
      const response = await call(POST, "/api/v2/things/t1", { body: {}, params: { thing_id: "t1" } });
      expect(await readJson(response)).toMatchObject({ query: { page: "1" } });
    }
  });

  it("refuses undeclared query parameters and media types the descriptor does not list", async () => {
    const unknown = await call(POST, "/api/v2/things/t1?pages=2", { body: {}, params: { thing_id: "t1" } });
    expect(unknown.status).toBe(400);
    expect(await readJson(unknown)).toMatchObject({
      detail: "Unknown query parameter pages. This operation accepts page, tags.",
    });
    const text = await call(POST, "/api/v2/things/t1", {
      rawBody: "{}",
      headers: { "content-type": "text/plain" },
      params: { thing_id: "t1" },
    });
    expect(text.status).toBe(415);
    expect(await readJson(text)).toMatchObject({
      detail: "Content-Type must be application/json or application/merge-patch+json; got text/plain.",
    });
  });
});
