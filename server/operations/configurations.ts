import { operation } from "@/server/http/operation";
import { CourierList, CourierProfileList, SourceConfigurationList } from "@/server/openapi/components";
import { courierProfile } from "@/server/openapi/examples";
import { courierItems } from "@/server/services/configurations/list-couriers";
import { answer } from "./shared";

const TAG = "Configurations";
const auth = { apiKey: "configurations:read" } as const;

export const listCouriersOp = operation({
  method: "get",
  path: "/api/v2/couriers",
  operationId: "listCouriers",
  tag: TAG,
  summary: "List couriers",
  description:
    "The couriers orders can be sent with, and what each supports: service codes, destination countries (ISO 3166-1 alpha-2), the parcel weight limit, " +
    "cash on delivery (`cod` is a boolean; `codCurrencies` lists the ISO 4217 currencies it collects), " +
    "and its pickup-point directory (`pickupPoints`: open points and the last complete sync; null for a courier without points).",
  auth,
  responses: {
    200: answer("The couriers.", CourierList, {
      couriers: [
        "The built-in couriers, with synced directories",
        {
          items: courierItems((courier) =>
            courier === "sandbox"
              ? null
              : { count: courier === "packeta" ? 30_000 : 12_000, syncedAt: "2026-11-27T03:05:12.000" },
          ),
        },
      ],
    }),
  },
});

export const listSourceConfigurationsOp = operation({
  method: "get",
  path: "/api/v2/configurations/sources",
  operationId: "listSourceConfigurations",
  tag: TAG,
  summary: "List order sources",
  description:
    "The (ReferenceSource, SourceIdentifier) pairs orders of this account may name, grouped by ReferenceSource (`id`) with its SourceIdentifiers (`profiles[].id`). " +
    "`api` with profile `default` is always listed first: it is what an order without a source pair gets.",
  auth,
  responses: {
    200: answer("The sources.", SourceConfigurationList, {
      sources: [
        "The built-in pair and one activated pair",
        {
          items: [
            { id: "api", name: "API", profiles: [{ id: "default", name: "Default" }] },
            { id: "shoptet", name: "shoptet", profiles: [{ id: "eshop-1", name: "Main e-shop" }] },
          ],
        },
      ],
    }),
  },
});

export const listAccountCourierProfilesOp = operation({
  method: "get",
  path: "/api/v2/configurations/courier-profiles",
  operationId: "listAccountCourierProfiles",
  tag: TAG,
  summary: "List courier profiles",
  description:
    "The courier profiles of the key's account (per courier, the default first), whose ids can be passed as `?profile=` to validate and create.",
  auth,
  responses: {
    200: answer("The profiles.", CourierProfileList, {
      profiles: ["One sandbox profile", { items: [courierProfile] }],
    }),
  },
});

export const operations = [listCouriersOp, listSourceConfigurationsOp, listAccountCourierProfilesOp];
