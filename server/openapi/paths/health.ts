import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { Health } from "../components";
import { jsonResponse, problemExample, problemResponse } from "../responses";
import { noSecurity } from "../security";

export function registerHealth(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/health",
    operationId: "getHealth",
    tags: ["Health"],
    summary: "Health check",
    description:
      "200 when the database answers a trivial query within 2 seconds, else 503. For load balancers and monitoring; needs no credentials.",
    security: noSecurity,
    responses: {
      200: jsonResponse("Healthy.", Health, { ok: { summary: "Healthy", value: { status: "ok" } } }),
      400: problemResponse("A query parameter was given; this operation takes none.", {
        unknownParameter: problemExample(
          "Unknown query parameter",
          "bad_request",
          "Unknown query parameter verbose. This operation takes none.",
          [{ field: "verbose", message: "is not a parameter of this operation" }],
        ),
      }),
      503: jsonResponse(
        "The database does not answer (a plain JSON body, not a problem: monitors read `status`).",
        Health,
        {
          unavailable: { summary: "Database down", value: { status: "unavailable" } },
        },
      ),
    },
  });
}
