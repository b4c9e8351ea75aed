"use client";

import { useSearchParams } from "next/navigation";
import { createContext, useContext, useMemo } from "react";
import { ACCOUNT_PARAM, pickAccount, type AccountChoice } from "@/lib/account";
import { isKnownTimeZone, UTC } from "@/lib/format-time";

type Zones = { selected: string; byAccount: Readonly<Record<string, string>> };

const TimeZoneContext = createContext<Zones>({ selected: UTC, byAccount: {} });

/**
 * The time zone every dashboard time is shown in: the selected account's (`?account=`, else the first account, as
 * the pages pick it). The zones come from the server with the accounts, so the server's render and the browser's
 * write the same text; the browser's own zone is never read. The layout is not rendered again when the account
 * changes, so it hands over every account and the choice is made here, from the URL. A zone the runtime does not
 * know is shown as UTC.
 */
export function TimeZoneProvider({ accounts, children }: { accounts: AccountChoice[]; children: React.ReactNode }) {
  const selectedId = pickAccount(accounts, useSearchParams().get(ACCOUNT_PARAM))?.id;
  const value = useMemo<Zones>(() => {
    const byAccount = Object.fromEntries(
      accounts.flatMap((account) => (isKnownTimeZone(account.timeZone) ? [[account.id, account.timeZone]] : [])),
    );
    return { selected: (selectedId && byAccount[selectedId]) || UTC, byAccount };
  }, [accounts, selectedId]);
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}

/**
 * The zone to show times in: `accountId`'s when given (a list filtered to another account than the selected one),
 * else the selected account's. UTC outside the dashboard, and for an account the provider does not know.
 */
export function useTimeZone(accountId?: string): string {
  const zones = useContext(TimeZoneContext);
  return accountId === undefined ? zones.selected : (zones.byAccount[accountId] ?? UTC);
}
