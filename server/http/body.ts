import { AppError } from "@/server/errors";
import { fieldPath } from "@/server/validation";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Far deeper than any body of the API; JSON.stringify (storing the body) runs out of stack long before 1 MiB of brackets. */
export const MAX_JSON_DEPTH = 64;

/** The media type of a request without parameters, lower-cased (`application/json; charset=utf-8` → `application/json`). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Reads a JSON body: unsupported Content-Type → 415, more than 1 MiB → 413 (checked while streaming, so a
 * lying or absent Content-Length cannot get past it), malformed JSON → 400.
 */
export async function readJson(request: Request, accepted: readonly string[] = ["application/json"]): Promise<unknown> {
  const type = mediaTypeOf(request);
  if (!accepted.includes(type)) {
    throw new AppError(
      "unsupported_media_type",
      `Content-Type must be ${accepted.join(" or ")}; got ${type || "none"}.`,
      {
        errors: [{ field: "Content-Type", message: `expected ${accepted.join(" or ")}` }],
      },
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(request);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.", {
      errors: [{ field: "body", message: "malformed JSON" }],
    });
  }
  assertStorable(value);
  return value;
}

/** PostgreSQL stores no U+0000 (text or jsonb) and no unpaired surrogate (jsonb); both are no Unicode text either. */
const storable = (s: string) => !s.includes("\u0000") && s.isWellFormed();

/**
 * Refuses, with a 400 naming the place, what would otherwise fail deep down as a 500: text PostgreSQL cannot
 * store, and nesting deeper than MAX_JSON_DEPTH. Iterative, so no body can exhaust the stack here either.
 */
function assertStorable(root: unknown): void {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value, path } = item;
    if (typeof value === "string") {
      if (!storable(value)) throw unstorable(path);
    } else if (typeof value === "object" && value !== null) {
      if (path.length >= MAX_JSON_DEPTH) {
        throw new AppError("bad_request", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, {
          errors: [{ field: "body", message: `nested more than ${MAX_JSON_DEPTH} levels deep` }],
        });
      }
      const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
      for (const [key, child] of entries) {
        if (typeof key === "string" && !storable(key)) throw unstorable([...path, key]);
        pending.push({ value: child, path: [...path, key] });
      }
    }
  }
}

const unstorable = (path: (string | number)[]) => {
  const field = fieldPath(path);
  return new AppError(
    "bad_request",
    `${field}: contains U+0000 or an unpaired surrogate, which is not text that can be stored.`,
    {
      errors: [{ field, message: "contains U+0000 or an unpaired surrogate" }],
    },
  );
};

async function readLimited(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const tooLarge = () =>
  new AppError("payload_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB).`, {
    errors: [{ field: "body", message: "larger than 1 MiB" }],
  });
