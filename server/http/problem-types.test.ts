import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import ProblemTypePage, { generateStaticParams } from "@/app/problems/[slug]/page";
import type { CourierErrorCode } from "@/server/couriers/adapter";
import { AppError, errorTable, type AppErrorCode } from "@/server/errors";
import { openApiDocumentJson } from "@/server/openapi/document-json";
import { errorResponse, problemBody } from "./problem";
import { PROBLEM_TYPES, problemTypeUri } from "./problem-types";
import { PRERENDERED_PAGES } from "./prerendered-pages";

/** Every courier code a problem can name in `code` (a Record, so a new CourierErrorCode fails to compile here). */
const courierCodes = Object.keys({
  COURIER_REJECTED: true,
  COURIER_AUTH_FAILED: true,
  COURIER_UNAVAILABLE: true,
  COURIER_TIMEOUT: true,
  COURIER_CANNOT_CANCEL: true,
} satisfies Record<CourierErrorCode, true>);

const appErrorCodes = Object.keys(errorTable) as AppErrorCode[];

const render = async (slug: string) =>
  renderToStaticMarkup(await ProblemTypePage({ params: Promise.resolve({ slug }) }));

/** The text a reader sees of rendered markup. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

describe("problem types", () => {
  it("every error code and courier code the server can answer has a type URI with a page explaining it", async () => {
    for (const code of [...appErrorCodes, ...courierCodes]) {
      const uri = problemTypeUri(code);
      const slug = uri.replace(/^\/problems\//, "");
      const explanation = PROBLEM_TYPES.get(slug);
      expect(explanation, code).toBeDefined();
      const text = textOf(await render(slug));
      expect(text, code).toContain(explanation!.title);
      expect(text, code).toContain(explanation!.when.replaceAll("`", ""));
      expect(text, code).toContain(explanation!.action.replaceAll("`", ""));
    }
    expect(PROBLEM_TYPES.size).toBe(appErrorCodes.length + courierCodes.length);
  });

  it("the problem builder's `type` is the page of the error's code, or of the courier code it names", async () => {
    for (const code of appErrorCodes) {
      const body = (await errorResponse(new AppError(code, "x")).json()) as { type: string };
      expect(body.type, code).toBe(`/problems/${code.replaceAll("_", "-")}`);
    }
    for (const problemCode of courierCodes) {
      const body = (await errorResponse(new AppError("unavailable", "x", { details: { problemCode } })).json()) as {
        type: string;
        code: string;
      };
      expect(body, problemCode).toMatchObject({ type: problemTypeUri(problemCode), code: problemCode });
      expect(PROBLEM_TYPES.has(body.type.replace("/problems/", "")), problemCode).toBe(true);
    }
    expect(problemBody(404, "x").type).toBe("about:blank");
  });

  it("the OpenAPI document's problem examples name only types that have a page", () => {
    const types = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") {
        const record = value as Record<string, unknown>;
        if (typeof record.type === "string" && typeof record.status === "number" && "detail" in record)
          types.add(record.type);
        Object.values(record).forEach(walk);
      }
    };
    walk(openApiDocumentJson().paths);
    expect(types.size).toBeGreaterThan(5);
    for (const type of types)
      expect(type === "about:blank" || PROBLEM_TYPES.has(type.replace(/^\/problems\//, "")), type).toBe(true);
    expect(types).toContain("/problems/not-found");
  });

  it("the pages are prerendered, one per type, and an unknown slug is not found", async () => {
    expect(generateStaticParams().map(({ slug }) => slug)).toEqual([...PROBLEM_TYPES.keys()]);
    for (const slug of PROBLEM_TYPES.keys()) expect(PRERENDERED_PAGES.has(`/problems/${slug}`), slug).toBe(true);
    await expect(render("no-such-problem")).rejects.toThrow();
  });
});
