import type { Executor } from "@/db/client";
import { defaultAccountId, type Actor } from "@/server/services/actor";
import { pagingQuery, type Paging } from "@/server/services/pagination";
import { parseInput } from "@/server/validation";
import { single } from "./query";

/** The query parameters of a private list: declare them in the route's `RouteOptions.query`. */
export const ACCOUNT_PARAM = "accountId";
export const PAGING_PARAMS = ["page", "pageSize"] as const;

/** `accountId` from the query; when absent, the caller's only account (else 400). */
export async function accountIdFrom(url: URL, db: Executor, actor: Actor): Promise<string> {
  return single(url, "accountId") || defaultAccountId(db, actor);
}

export function pagingFrom(url: URL): Paging {
  return parseInput(pagingQuery, { page: single(url, "page"), pageSize: single(url, "pageSize") });
}
