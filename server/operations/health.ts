import { operation } from "@/server/http/operation";
import { Health, Readiness } from "@/server/openapi/components";
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

export const getReadinessOp = operation({
  method: "get",
  path: "/api/health/ready",
  operationId: "getReadiness",
  tag: "Health",
  summary: "Readiness check",
  description:
    "200 when the process is not stopping, the database answers within 2 seconds and every migration of this build is applied; else 503 " +
    "with the reason. A process asked to stop (SIGTERM) answers 503 `stopping` at once while it finishes its work in flight. For a load balancer " +
    "deciding whether to send traffic to this instance (`/api/health` is the liveness check). Needs no credentials.",
  auth: "none",
  serverErrors: false,
  responses: {
    200: answer("Ready.", Readiness, { ready: ["Ready", { status: "ready" }] }),
    503: answer("Not ready (a plain JSON body, not a problem).", Readiness, {
      pending: ["Migrations pending", { status: "unavailable", reason: "migrations pending: 10 of 12 applied" }],
      down: ["Database down", { status: "unavailable", reason: "the database does not answer (connection failed)" }],
      stopping: ["Stopping", { status: "unavailable", reason: "stopping" }],
    }),
  },
});

export const operations = [getHealthOp, getReadinessOp];
