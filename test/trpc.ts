import { TRPCError } from "@trpc/server";
import type { Session } from "next-auth";
import { beforeAll } from "vitest";
import { createTRPCContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createTestUser, type TestUser } from "./helpers";
import { createPartner, type Partner } from "./partner";

/** A next-auth session as the dashboard would have it for this user. */
export function sessionOf(user: Pick<TestUser, "userId" | "email">, { staff = false } = {}): Session {
  return {
    user: { id: user.userId, email: user.email, name: null, isStaff: staff },
    expires: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

/** The app router called in-process as the given user (or signed out), against the real database. */
export async function callerFor(user: Pick<TestUser, "userId" | "email"> | null, options: { staff?: boolean } = {}) {
  return createCaller(
    await createTRPCContext({ session: user ? sessionOf(user, options) : null, headers: new Headers() }),
  );
}

/** The error a procedure call failed with; a call that succeeds fails the test. */
export const failure = (promise: Promise<unknown>): Promise<TRPCError> =>
  promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error as TRPCError,
  );

/** The tRPC code a call failed with, or "resolved". */
export const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof TRPCError ? error.code : error),
  );

export type SuiteUsers<P extends TestUser> = { owner: P; member: TestUser; stranger: P; staff: TestUser };

/**
 * The people of a router suite, created in the file's `beforeAll`: the owner of an account, a member of that
 * account, a stranger who owns another, and staff. With `partners`, both accounts also have an API key and a
 * sandbox profile. Read the fields inside tests and hooks (they are filled in before the first test).
 */
export function suiteUsers(): SuiteUsers<TestUser>;
export function suiteUsers(options: { partners: true }): SuiteUsers<Partner>;
export function suiteUsers({ partners = false } = {}): SuiteUsers<TestUser> {
  const users = {} as SuiteUsers<TestUser>;
  beforeAll(async () => {
    const owner = partners ? await createPartner() : await createTestUser();
    Object.assign(users, {
      owner,
      member: await createTestUser({ accountId: owner.accountId, role: "member" }),
      stranger: partners ? await createPartner() : await createTestUser(),
      staff: await createTestUser({ staff: true }),
    });
  });
  return users;
}
