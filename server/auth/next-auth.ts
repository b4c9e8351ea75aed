import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { env } from "@/server/env";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "@/server/http/client-address";
import { AppError } from "@/server/errors";
import { signInDashboardUser } from "@/server/services/accounts/sign-in-dashboard-user";
import { SIGN_IN_RATE_LIMITED } from "./sign-in-errors";

declare module "next-auth" {
  interface User {
    isStaff: boolean;
  }
  interface Session {
    user: { id: string; email: string; name: string | null; isStaff: boolean };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    isStaff?: boolean;
  }
}

// A dashboard session can create and revoke API keys, so it lasts a working day rather than next-auth's 30 days.
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/**
 * next-auth configuration for the dashboard: email and password checked by the accounts service, and a
 * JWT session carrying the user id and staff flag. A function, not a constant, so the secret is read
 * when a request needs it and not while `next build` imports the module.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: env().AUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, request) {
          if (!credentials?.email || !credentials.password) return null;
          // The address the app's server set (with-client-address.ts); next-auth hands the headers on as an object.
          const address = request.headers?.[CLIENT_ADDRESS_HEADER];
          const ip = clientAddress(
            new Headers(typeof address === "string" ? { [CLIENT_ADDRESS_HEADER]: address } : {}),
          );
          try {
            return await signInDashboardUser(
              await getDb(),
              { email: credentials.email, password: credentials.password },
              { ip },
            );
          } catch (error) {
            // next-auth hands a thrown error's message to the sign-in form as `error`; the form knows this one.
            if (error instanceof AppError && error.code === "rate_limited") throw new Error(SIGN_IN_RATE_LIMITED);
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        // `user` is present only on sign-in; later requests keep what was put in the token then.
        if (user) token.isStaff = user.isStaff;
        return token;
      },
      session({ session, token }) {
        session.user = {
          id: token.sub ?? "",
          email: token.email ?? "",
          name: token.name ?? null,
          isStaff: token.isStaff === true,
        };
        return session;
      },
    },
  };
}

/** The signed-in user's session in a server component, route handler or server action; null when signed out. */
export async function getSession() {
  const session = await getServerSession(authOptions());
  return session?.user.id ? session : null;
}
