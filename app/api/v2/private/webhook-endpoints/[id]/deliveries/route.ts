import { json } from "@/server/http/handler";
import { PAGING_PARAMS, pagingFrom } from "@/server/http/private-query";
import { single } from "@/server/http/query";
import { withAccessToken } from "@/server/http/with-access-token";
import { listWebhookDeliveries } from "@/server/services/webhooks/list-webhook-deliveries";
import { listDeliveriesQuery } from "@/server/services/webhooks/schemas";
import { parseInput } from "@/server/validation";

export const GET = withAccessToken<{ id: string }>(
  async ({ url, params, db, actor }) => {
    const filter = parseInput(listDeliveriesQuery, { status: single(url, "status") });
    return json(await listWebhookDeliveries(db, actor, params.id, filter, pagingFrom(url)));
  },
  { query: ["status", ...PAGING_PARAMS] },
);
