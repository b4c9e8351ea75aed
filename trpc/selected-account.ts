import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { pickAccount, type AccountChoice } from "@/lib/account";
import { getSession } from "@/server/auth/next-auth";
import { api } from "./server";

/**
 * The accounts the signed-in user can open: their own, or every account for staff. Signed out, or a
 * session whose user is gone, goes to the sign-in page. Layouts do not re-render on navigation, so
 * every page asks this itself rather than trusting the layout's check.
 */
export const getMyAccounts = cache(async (): Promise<AccountChoice[]> => {
  const session = await getSession();
  if (!session) redirect("/sign-in");
  try {
    return session.user.isStaff ? await api.accounts.all() : await api.accounts.mine();
  } catch (error) {
    if (error instanceof TRPCError && error.code === "UNAUTHORIZED") redirect("/sign-in");
    throw error;
  }
});

export type DashboardSearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The account a dashboard page shows: the one in `?account=`, else the first; an id not offered is a 404. */
export async function getSelectedAccount(searchParams: DashboardSearchParams): Promise<AccountChoice> {
  const [accounts, params] = await Promise.all([getMyAccounts(), searchParams]);
  const account = pickAccount(accounts, params.account);
  if (!account) notFound();
  return account;
}
