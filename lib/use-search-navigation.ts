"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTransition } from "react";
import { ACCOUNT_PARAM } from "./account";

/**
 * Moves to the same page with other filters or another page number. The URL is the state, so a reload or
 * a shared link shows the same list; the selected account is kept. The current rows stay on screen
 * (a transition) until the new ones have loaded, and `isPending` says so meanwhile.
 */
export function useSearchNavigation() {
  const router = useRouter();
  const pathname = usePathname();
  const account = useSearchParams().get(ACCOUNT_PARAM);
  const [isPending, startTransition] = useTransition();

  function navigate(search: URLSearchParams) {
    const next = new URLSearchParams(account ? { [ACCOUNT_PARAM]: account } : {});
    search.forEach((value, key) => next.append(key, value));
    const query = next.toString();
    startTransition(() => router.push(query ? `${pathname}?${query}` : pathname, { scroll: false }));
  }

  return { navigate, isPending };
}
