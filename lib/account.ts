import type { AccountChoice } from "@/server/services/accounts/list-my-accounts";

export type { AccountChoice };

/** The search parameter that holds the selected account, so a reload or a shared link keeps it. */
export const ACCOUNT_PARAM = "account";

/** The account named in the URL, or the first one when the URL names none; undefined for an unknown id. */
export function pickAccount(
  accounts: AccountChoice[],
  param: string | string[] | null | undefined,
): AccountChoice | undefined {
  const id = Array.isArray(param) ? param[0] : param;
  return id ? accounts.find((account) => account.id === id) : accounts[0];
}

/** Whether the UI offers changes. A hint only: the services refuse members' writes whatever the UI shows. */
export const canWrite = (account: AccountChoice): boolean => account.role === "owner" || account.role === "staff";

export const roleLabel: Record<AccountChoice["role"], string> = {
  owner: "Owner",
  member: "Member",
  staff: "Staff access",
};

/** A dashboard link that keeps the selected account. */
export function withAccount(href: string, accountId: string | null): string {
  return accountId ? `${href}?${ACCOUNT_PARAM}=${encodeURIComponent(accountId)}` : href;
}
