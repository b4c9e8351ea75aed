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
  assertAccepted(mediaTypeOf(request), accepted);
  return parseJsonBody(await readText(request));
}

/**
 * Reads a body as text, of any door (REST, tRPC, sign-in): a declared Content-Length over 1 MiB is refused before
 * a byte is read, and a body without one (chunked) as soon as its bytes pass 1 MiB, so none is ever buffered whole.
 */
export async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  return readLimited(request.body);
}

/** 415 unless the media type is one of `accepted`. */
export function assertAccepted(type: string, accepted: readonly string[]): void {
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
}

export const unsupportedMediaType = (type: string, accepted: readonly string[]) =>
  new AppError("unsupported_media_type", `Content-Type must be ${accepted.join(" or ")}; got ${type || "none"}.`, {
    errors: [{ field: "Content-Type", message: `expected ${accepted.join(" or ")}` }],
  });

export const malformedJson = () =>
  new AppError("bad_request", "The request body is not valid JSON.", {
    errors: [{ field: "body", message: "malformed JSON" }],
  });

/** JSON text → value: malformed → 400, and what PostgreSQL could not store → 400 naming the place. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformedJson();
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
export function assertStorable(root: unknown): void {
  // A node links to its parent instead of carrying its path: the path is built only for the error, so walking a
  // 500-order batch allocates one small object per value rather than a copied path per value.
  type Node = { value: unknown; key: string | number; parent: Node | null; depth: number };
  const pending: Node[] = [{ value: root, key: "", parent: null, depth: 0 }];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const value = node.value;
    if (typeof value === "string") {
      if (!storable(value)) throw unstorable(pathOf(node));
    } else if (typeof value === "object" && value !== null) {
      const depth = node.depth;
      if (depth >= MAX_JSON_DEPTH) {
        throw new AppError("bad_request", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, {
          errors: [{ field: "body", message: `nested more than ${MAX_JSON_DEPTH} levels deep` }],
        });
      }
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++)
          pending.push({ value: value[i], key: i, parent: node, depth: depth + 1 });
      } else {
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          if (!storable(key)) throw unstorable([...pathOf(node), key]);
          pending.push({ value: (value as Record<string, unknown>)[key], key, parent: node, depth: depth + 1 });
        }
      }
    }
  }

  function pathOf(node: Node): (string | number)[] {
    const path: (string | number)[] = [];
    for (let n: Node | null = node; n?.parent; n = n.parent) path.push(n.key);
    return path.reverse();
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

/** Reads a body (a Web stream, or a Node request) to text, refusing it as soon as it passes MAX_BODY_BYTES. */
export async function readLimited(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const add = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  };
  if (body === null) return "";
  if ("getReader" in body) {
    const reader = body.getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) add(r.value);
    } catch (error) {
      await reader.cancel();
      throw error;
    }
  } else {
    // Leaving the loop by the throw destroys the stream.
    for await (const chunk of body) add(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export const tooLarge = () =>
  new AppError("payload_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB).`, {
    errors: [{ field: "body", message: "larger than 1 MiB" }],
  });
