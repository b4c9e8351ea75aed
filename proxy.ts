import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { problem } from "@/server/http/problem";
import { newNonce, pageContentSecurityPolicy } from "@/server/http/content-security-policy";
import { clientAddress } from "@/server/http/client-address";
import { prerenderedPageScriptHashes } from "@/server/http/prerendered-pages";
import {
  PAGE_COUNTED_HEADER,
  unauthenticatedPageLimiter,
  unauthenticatedPagesRefusal,
} from "@/server/http/unauthenticated-page-limit";
import { env } from "@/server/env";
import { mapTileOrigin } from "@/server/pickup-points/map-tiles";
import { exactOrigin } from "@/server/widget/origin";
import { secureCookies, sessionExpired } from "@/server/auth/session-policy";
import { requestIdOf } from "@/server/observability/request-context";

/**
 * Runs before routing for every page and for API paths that carry a percent sign (see `config`).
 *
 * API: a path that is not valid percent-encoding (`/api/v2/shipping-orders/%E2%82`, `/api/trpc/%E2`) answers 400
 * problem+json here. Next decodes the path to match a dynamic route and, failing, answers a plain-text 500 before
 * any route handler runs; the proxy runs before that match.
 *
 * Pages: a page rendered per request gets a nonce of its own and a Content-Security-Policy that allows only scripts
 * carrying it (set on the request, where Next's renderer reads it, and on the answer); a page prerendered by the build
 * (`/docs`) gets one that allows its inline scripts by hash. A visitor without a live session may load
 * UNAUTHENTICATED_PAGES_PER_MINUTE pages a minute from one address (429 problem past it). The dashboard additionally
 * sends such a visitor to the sign-in page before it renders, keeping the page they asked for. An optimistic check
 * only: the dashboard layout and every tRPC call check again.
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
  // The label's PDF is a file, not a page: its own policy (framed by the dashboard) comes from next.config.
  if (LABEL_FILE.test(pathname)) return NextResponse.next();
  const development = env().NODE_ENV === "development";
  const signedIn = await hasLiveSession(request);
  // Development has no client address (no app server in front of `next dev`) and one visitor.
  // A request the app's server counted already (it carried no session cookie: unauthenticated-page-limit.ts) is not
  // counted twice; one whose cookie does not hold is counted here.
  if (!signedIn && !development && request.headers.get(PAGE_COUNTED_HEADER) !== "1") {
    const limit = takeUnauthenticatedPage(clientAddress(request.headers));
    if (!limit.allowed)
      return problem(429, unauthenticatedPagesRefusal(limit.retryAfterSeconds), {
        code: "rate_limited",
        headers: { "retry-after": String(limit.retryAfterSeconds), "x-request-id": requestIdOf(request.headers) },
      });
  }
  // A development server renders every page per request, whatever a production build left in .next.
  const prerendered = development ? null : prerenderedPageScriptHashes(pathname);
  const policy = pageContentSecurityPolicy(prerendered ? { hashes: prerendered } : { nonce: newNonce() }, {
    development,
    mapTileOrigin: mapTileOrigin(),
    // The checkout widget's dialog may be framed by the shop page it names (an exact origin, or nothing); the page
    // itself shows the picker only when its publishable key lists that origin.
    frameAncestor: pathname === WIDGET_PAGE ? exactOrigin(request.nextUrl.searchParams.get("origin")) : null,
  });
  if (isDashboard(pathname) && !signedIn) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
    const redirect = NextResponse.redirect(signIn);
    redirect.headers.set("content-security-policy", policy);
    return redirect;
  }
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

/** One per process: each web process guards its own CPU (unauthenticated-page-limit.ts). */
const takeUnauthenticatedPage = unauthenticatedPageLimiter();

/** A session cookie that verifies and has not passed its absolute lifetime (session-policy.ts). */
async function hasLiveSession(request: NextRequest): Promise<boolean> {
  const token = await getToken({ req: request, secret: env().AUTH_SECRET, secureCookie: secureCookies() });
  return Boolean(token && !sessionExpired(token));
}

const WIDGET_PAGE = "/widget/pickup-points";

const LABEL_FILE = /^\/dashboard\/orders\/[^/]+\/label$/;

const isDashboard = (pathname: string) => pathname === "/dashboard" || pathname.startsWith("/dashboard/");

function isValidPercentEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  matcher: [
    // Pages (not Next's static files). Prefetches of next/link too: a header any client can send must not take a page
    // past the per-address limit.
    "/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)",
    // API paths only when they hold a `%` (the REST door, tRPC's `/api/trpc/%E2`, next-auth's): every other API
    // request skips the proxy (it costs a hop per request).
    "/api/:path(.*%.*)",
  ],
};
