import { expect } from "vitest";

// Checks every answer of the API must pass, whatever the request: a 4xx is a problem document, a validation
// response has the contract's shape.

export type ProblemBody = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
};

/** Reads the body once; a 4xx must be `application/problem+json` whose `status` is the HTTP status. */
export async function expectProblem(response: Response, context: string): Promise<ProblemBody> {
  expect(response.status, context).toBeGreaterThanOrEqual(400);
  expect(response.status, context).toBeLessThan(500);
  expect(response.headers.get("content-type"), context).toBe("application/problem+json");
  const body = (await response.json()) as ProblemBody;
  expect(body.status, context).toBe(response.status);
  expect(typeof body.title, context).toBe("string");
  expect(typeof body.detail, context).toBe("string");
  expect(typeof body.type, context).toBe("string");
  if (body.errors !== undefined) {
    expect(Array.isArray(body.errors), context).toBe(true);
    for (const e of body.errors) {
      expect(typeof e.field, context).toBe("string");
      expect(typeof e.message, context).toBe("string");
    }
  }
  return body;
}

type ValidationShape = {
  status: string;
  referenceNumber: string | null;
  messages: { code: string; severity: string; field: string; message: string }[];
};

/** The validation response of one order, as validate (200) and create (400) answer it. */
export function expectValidationShape(value: unknown, context: string): void {
  const v = value as ValidationShape;
  expect(["OK", "WARNING", "ERROR"], context).toContain(v.status);
  expect(v.referenceNumber === null || typeof v.referenceNumber === "string", context).toBe(true);
  expect(Array.isArray(v.messages), context).toBe(true);
  for (const m of v.messages) {
    expect(typeof m.code, context).toBe("string");
    expect(["ERROR", "WARNING"], context).toContain(m.severity);
    expect(typeof m.field, context).toBe("string");
    expect(typeof m.message, context).toBe("string");
  }
  const expected = v.messages.some((m) => m.severity === "ERROR") ? "ERROR" : v.messages.length > 0 ? "WARNING" : "OK";
  expect(v.status, context).toBe(expected);
}
