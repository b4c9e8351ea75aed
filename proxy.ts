import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/server/env";

/**
 * Sends a visitor without a valid session to the sign-in page before the dashboard renders, keeping the
 * page they asked for. An optimistic check only: the dashboard layout and every tRPC call check again.
 */
export async function proxy(request: NextRequest) {
  if (await getToken({ req: request, secret: env().AUTH_SECRET })) return NextResponse.next();
  const signIn = new URL("/sign-in", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
