import { json } from "@/server/http/handler";
import { pagingFrom } from "@/server/http/private-query";
import { rejectUnknownQuery, single } from "@/server/http/query";
import { withAccessToken } from "@/server/http/with-access-token";
import { parseInput } from "@/server/validation";
import { listWebhookDeliveries } from "@/server/services/webhooks/list-webhook-deliveries";
import { listDeliveriesQuery } from "@/server/services/webhooks/schemas";

export const GET = withAccessToken<{ id: string }>(async ({ url, params, db, actor }) => {
  rejectUnknownQuery(url, ["status", "page", "pageSize"]);
  const filter = parseInput(listDeliveriesQuery, { status: single(url, "status") });
  return json(await listWebhookDeliveries(db, actor, params.id, filter, pagingFrom(url)));
});
