import { json } from "@/server/http/handler";
import { accountIdFrom, ACCOUNT_PARAM, PAGING_PARAMS, pagingFrom } from "@/server/http/private-query";
import { withAccessToken } from "@/server/http/with-access-token";
import { listAuditEvents } from "@/server/services/audit/list-audit-events";

export const GET = withAccessToken(
  async ({ url, db, actor }) => {
    const paging = pagingFrom(url);
    return json(await listAuditEvents(db, actor, await accountIdFrom(url, db, actor), paging));
  },
  { query: [ACCOUNT_PARAM, ...PAGING_PARAMS] },
);
