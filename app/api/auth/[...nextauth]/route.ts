import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/next-auth";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth types its App Router handler's result as `any`; it is the route's Response.
function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
