import { readJson } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { accountIdFrom, ACCOUNT_PARAM, PAGING_PARAMS, pagingFrom } from "@/server/http/private-query";
import { withAccessToken } from "@/server/http/with-access-token";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/server/services/webhooks/list-webhook-endpoints";

export const GET = withAccessToken(
  async ({ url, db, actor }) => {
    const paging = pagingFrom(url);
    return json(await listWebhookEndpoints(db, actor, await accountIdFrom(url, db, actor), paging));
  },
  { query: [ACCOUNT_PARAM, ...PAGING_PARAMS] },
);

export const POST = withAccessToken(async ({ request, db, actor, ip }) =>
  json(await createWebhookEndpoint(db, actor, await readJson(request), { ip }), 201, { "cache-control": "no-store" }),
);
