import { readJson } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { accountIdFrom, pagingFrom } from "@/server/http/private-query";
import { rejectUnknownQuery } from "@/server/http/query";
import { withAccessToken } from "@/server/http/with-access-token";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/server/services/webhooks/list-webhook-endpoints";

export const GET = withAccessToken(async ({ url, db, actor }) => {
  rejectUnknownQuery(url, ["accountId", "page", "pageSize"]);
  const paging = pagingFrom(url);
  return json(await listWebhookEndpoints(db, actor, await accountIdFrom(url, db, actor), paging));
});

export const POST = withAccessToken(async ({ request, url, db, actor, ip }) => {
  rejectUnknownQuery(url, []);
  return json(await createWebhookEndpoint(db, actor, await readJson(request), { ip }), 201, {
    "cache-control": "no-store",
  });
});
