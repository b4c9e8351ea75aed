import { operation } from "@/server/http/operation";
import { Health } from "@/server/openapi/components";
import { answer } from "./shared";

export const getHealthOp = operation({
  method: "get",
  path: "/api/health",
  operationId: "getHealth",
  tag: "Health",
  summary: "Health check",
  description:
    "200 when the database answers a trivial query within 2 seconds, else 503. For load balancers and monitoring; needs no credentials.",
  auth: "none",
  serverErrors: false,
  responses: {
    200: answer("Healthy.", Health, { ok: ["Healthy", { status: "ok" }] }),
    503: answer("The database does not answer (a plain JSON body, not a problem: monitors read `status`).", Health, {
      unavailable: ["Database down", { status: "unavailable" }],
    }),
  },
});

export const operations = [getHealthOp];
