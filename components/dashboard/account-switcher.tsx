"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { ACCOUNT_PARAM, pickAccount, roleLabel, withAccount, type AccountChoice } from "@/lib/account";

/** Chooses the account every page shows; the choice is kept in the URL. One account is simply named. */
export function AccountSwitcher({ accounts }: { accounts: AccountChoice[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const selected = pickAccount(accounts, useSearchParams().get(ACCOUNT_PARAM));

  if (accounts.length === 1) {
    return (
      <div className="px-6">
        <p className="text-xs font-medium text-slate-500">Account</p>
        <p className="truncate text-sm font-semibold text-slate-900">{accounts[0]!.name}</p>
        <p className="text-xs text-slate-500">{roleLabel[accounts[0]!.role]}</p>
      </div>
    );
  }
  return (
    <div className="space-y-1 px-3">
      <label htmlFor="account-switcher" className="block text-xs font-medium text-slate-500">
        Account
      </label>
      <Select value={selected?.id} onValueChange={(id) => router.push(withAccount(pathname, id))}>
        <SelectTrigger id="account-switcher" placeholder="Choose an account" />
        <SelectContent>
          {accounts.map((account) => (
            <SelectItem key={account.id} value={account.id} description={roleLabel[account.role]}>
              {account.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
