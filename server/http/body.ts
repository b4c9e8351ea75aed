import { AppError } from "@/server/errors";

export const MAX_BODY_BYTES = 1024 * 1024;

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
    throw new AppError("unsupported_media_type", `Content-Type must be ${accepted.join(" or ")}; got ${type || "none"}.`, {
      errors: [{ field: "Content-Type", message: `expected ${accepted.join(" or ")}` }],
    });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(request);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.", { errors: [{ field: "body", message: "malformed JSON" }] });
  }
}

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
