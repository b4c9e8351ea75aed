import { env } from "@/server/env";

/**
 * CSRF defence for cookie-authenticated mutations: a browser states where a request comes from
 * (`Sec-Fetch-Site`, else `Origin`); anything from another site is refused. An `Origin` is compared with the
 * platform's origin (PUBLIC_URL), never with the request's `Host` or `X-Forwarded-Host`. Requests without either
 * header (curl, server-side callers) carry no ambient browser cookies worth forging. Session cookies are also
 * SameSite=Lax, so this is the second of two locks.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  try {
    return new URL(origin).origin !== env().PUBLIC_URL;
  } catch {
    return true;
  }
}
