import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { problem } from "@/server/http/problem";
import { env } from "@/server/env";
import { requestIdOf } from "@/server/observability/request-context";

/**
 * Runs before routing for the dashboard and for API paths that carry a percent sign (see `config`).
 *
 * API: a path that is not valid percent-encoding (`/api/v2/shipping-orders/%E2%82`, `/api/trpc/%E2`) answers 400
 * problem+json here.
 * Next decodes the path to match a dynamic route and, failing, answers a plain-text 500 before any route
 * handler runs; the proxy runs before that match.
 *
 * Dashboard: sends a visitor without a valid session to the sign-in page before the dashboard renders,
 * keeping the page they asked for. An optimistic check only: the dashboard layout and every tRPC call check again.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/")) {
    if (isValidPercentEncoding(pathname)) return NextResponse.next();
    return problem(400, "The request path is not valid percent-encoding (RFC 3986).", {
      code: "bad_request",
      errors: [{ field: "path", message: "not valid percent-encoding" }],
      headers: { "x-request-id": requestIdOf(request.headers) },
    });
  }
  if (await getToken({ req: request, secret: env().AUTH_SECRET })) return NextResponse.next();
  const signIn = new URL("/sign-in", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

function isValidPercentEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

// API paths only when they hold a `%` (the REST door, tRPC's `/api/trpc/%E2`, next-auth's): every other API request
// skips the proxy (it costs a hop per request).
export const config = { matcher: ["/dashboard", "/dashboard/:path*", "/api/:path(.*%.*)"] };
