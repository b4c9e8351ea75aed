import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { badField } from "@/server/errors";
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  completeIdempotentRequest,
} from "@/server/services/idempotency/idempotent-requests";
import { errorResponse } from "./problem";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function assertIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw badField("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
}

/** What makes two requests "the same request" for one Idempotency-Key. */
export const idempotencyFingerprint = (method: string, url: URL, contentType: string | null, body: unknown) =>
  createHash("sha256")
    .update(`${method} ${url.pathname}?${url.searchParams.toString()}\n${contentType ?? ""}\n${JSON.stringify(body)}`)
    .digest("hex");

/**
 * Runs a create under its `Idempotency-Key` (if any): a repeat with the same request within 24 hours gets
 * the stored answer (same status and body) without running again. 5xx answers are not stored.
 */
export async function idempotent(
  request: Request,
  db: Db,
  accountId: string,
  body: unknown,
  run: () => Promise<Response>,
): Promise<Response> {
  const key = request.headers.get("idempotency-key");
  if (key === null) return run();
  assertIdempotencyKey(key);
  const url = new URL(request.url);
  const fingerprint = idempotencyFingerprint(request.method, url, request.headers.get("content-type"), body);
  const start = await beginIdempotentRequest(db, accountId, key, fingerprint);
  if (start.kind === "replay") {
    const { status, contentType, body: stored } = start.response;
    return new Response(JSON.stringify(stored), {
      status,
      headers: { "content-type": contentType, "idempotent-replayed": "true" },
    });
  }
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    response = errorResponse(error, request);
  }
  if (response.status >= 500) {
    await abandonIdempotentRequest(db, accountId, key);
    return response;
  }
  const contentType = response.headers.get("content-type") ?? "application/json";
  await completeIdempotentRequest(db, accountId, key, {
    status: response.status,
    contentType,
    body: await response.clone().json(),
  });
  return response;
}
