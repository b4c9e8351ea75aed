import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { listCouriers } from "@/server/services/configurations/list-couriers";
import { CourierList, CourierProfileList, SourceConfigurationList } from "../components";
import { courierProfile } from "../examples";
import { apiKeyResponses, jsonResponse } from "../responses";
import { apiKeySecurity } from "../security";

const TAG = "Configurations";

export function registerConfigurations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v2/couriers",
    operationId: "listCouriers",
    tags: [TAG],
    summary: "List couriers",
    description:
      "The couriers orders can be sent with, and what each supports: service codes, destination countries (ISO 3166-1 alpha-2), the parcel weight limit, " +
      "and cash on delivery (`cod` is a boolean; `codCurrencies` lists the ISO 4217 currencies it collects). Requires the permission `configurations:read`.",
    security: apiKeySecurity("configurations:read"),
    responses: apiKeyResponses("configurations:read", {
      200: jsonResponse("The couriers.", CourierList, {
        couriers: {
          summary: "The built-in sandbox courier",
          value: listCouriers(),
        },
      }),
    }),
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/configurations/sources",
    operationId: "listSourceConfigurations",
    tags: [TAG],
    summary: "List order sources",
    description:
      "The (ReferenceSource, SourceIdentifier) pairs orders of this account may name, grouped by ReferenceSource (`id`) with its SourceIdentifiers (`profiles[].id`). " +
      "`api` with profile `default` is always listed first: it is what an order without a source pair gets. Requires the permission `configurations:read`.",
    security: apiKeySecurity("configurations:read"),
    responses: apiKeyResponses("configurations:read", {
      200: jsonResponse("The sources.", SourceConfigurationList, {
        sources: {
          summary: "The built-in pair and one activated pair",
          value: {
            items: [
              { id: "api", name: "API", profiles: [{ id: "default", name: "Default" }] },
              { id: "shoptet", name: "shoptet", profiles: [{ id: "eshop-1", name: "Main e-shop" }] },
            ],
          },
        },
      }),
    }),
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/configurations/courier-profiles",
    operationId: "listAccountCourierProfiles",
    tags: [TAG],
    summary: "List courier profiles",
    description:
      "The courier profiles of the key's account (per courier, the default first), whose ids can be passed as `?profile=` to validate and create. " +
      "Requires the permission `configurations:read`.",
    security: apiKeySecurity("configurations:read"),
    responses: apiKeyResponses("configurations:read", {
      200: jsonResponse("The profiles.", CourierProfileList, {
        profiles: { summary: "One sandbox profile", value: { items: [courierProfile] } },
      }),
    }),
  });
}
