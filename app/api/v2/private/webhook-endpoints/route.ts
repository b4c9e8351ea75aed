import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { createWebhookEndpointOp, listWebhookEndpointsOp } from "@/server/operations/webhooks";
import { accountIdOrDefault } from "@/server/services/authorization";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/server/services/webhooks/list-webhook-endpoints";

export const GET = route(listWebhookEndpointsOp, async ({ query, db, actor }) =>
  json(await listWebhookEndpoints(db, actor, await accountIdOrDefault(db, actor, query.accountId), query)),
);

export const POST = route(createWebhookEndpointOp, async ({ body, db, actor, ip }) =>
  json(await createWebhookEndpoint(db, actor, body, { ip }), 201, { "cache-control": "no-store" }),
);
