import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { env } from "@/server/env";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "@/server/http/client-address";
import { AppError } from "@/server/errors";
import { getActor } from "@/server/services/accounts/get-actor";
import { signInDashboardUser } from "@/server/services/accounts/sign-in-dashboard-user";
import { secureCookies, sessionExpired, SESSION_MAX_AGE_SECONDS } from "./session-policy";
import { SIGN_IN_RATE_LIMITED } from "@/lib/sign-in-errors";

declare module "next-auth" {
  interface User {
    isStaff: boolean;
    sessionVersion: number;
  }
  interface Session {
    user: { id: string; email: string; name: string | null; isStaff: boolean };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    isStaff?: boolean;
    /** The user's session version at sign-in; the session ends when the user's is raised (a password change). */
    sv?: number;
    /** When the user signed in (seconds since the epoch): the session ends 12 hours later, however active. */
    authAt?: number;
  }
}

/**
 * next-auth configuration for the dashboard: email and password checked by the accounts service, and a
 * JWT session carrying the user id and staff flag. A function, not a constant, so the secret is read
 * when a request needs it and not while `next build` imports the module.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: env().AUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    useSecureCookies: secureCookies(),
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
      async jwt({ token, user }) {
        // `user` is present only on sign-in; later requests keep what was put in the token then.
        if (user) {
          token.isStaff = user.isStaff;
          token.sv = user.sessionVersion;
          token.authAt = Math.floor(Date.now() / 1000);
          return token;
        }
        // Thrown, next-auth answers no session and clears the cookie: past 12 hours since the sign-in, or the
        // user's password changed (or the user is gone) since.
        if (sessionExpired(token)) throw new Error("the session is past its 12 hours");
        const actor = token.sub ? await getActor(await getDb(), token.sub, { sessionVersion: token.sv ?? -1 }) : null;
        if (!actor) throw new Error("the session was ended (password changed or user removed)");
        return token;
      },
      session({ session, token }) {
        // The session ends 12 hours after the sign-in, whatever next-auth's sliding cookie says.
        if (typeof token.authAt === "number")
          session.expires = new Date((token.authAt + SESSION_MAX_AGE_SECONDS) * 1000).toISOString();
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
