import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listWebhookDeliveriesOp } from "@/server/operations/webhooks";
import { listWebhookDeliveries } from "@/server/services/webhooks/list-webhook-deliveries";

export const GET = route(listWebhookDeliveriesOp, async ({ query, params, db, actor }) =>
  json(await listWebhookDeliveries(db, actor, params.id, { status: query.status }, query)),
);
