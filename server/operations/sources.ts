import { operation } from "@/server/http/operation";
import { ActivateSourceRequest, Source, SourceList } from "@/server/openapi/components";
import { ACCOUNT_ID, source, SOURCE_ID } from "@/server/openapi/examples";
import { sourceConflicts } from "@/server/services/sources/activate-source";
import { activateSourceInput } from "@/server/services/sources/schemas";
import { parseInput } from "@/server/validation";
import { accountQuery, answer, idParams, jsonBody, thrown } from "./shared";

const TAG = "Private: sources";

export const listSourcesOp = operation({
  method: "get",
  path: "/api/v2/private/sources",
  operationId: "listSources",
  tag: TAG,
  summary: "List activated sources",
  description:
    "The account's activated (ReferenceSource, SourceIdentifier) pairs, by ReferenceSource then SourceIdentifier. The built-in `api`/`default` is always active and not listed.",
  auth: "accessToken",
  query: accountQuery,
  responses: { 200: answer("The pairs.", SourceList, { sources: ["One activated pair", { items: [source] }] }) },
});

export const activateSourceOp = operation({
  method: "post",
  path: "/api/v2/private/sources",
  operationId: "activateSource",
  tag: TAG,
  summary: "Activate a source",
  description:
    "Activates a (ReferenceSource, SourceIdentifier) pair, so orders naming it are accepted. Matching is exact, case included. " +
    "A pair already active (or `api`/`default`, which is built in) → 409.",
  auth: "accessToken",
  body: jsonBody(ActivateSourceRequest, {
    shop: [
      "An e-shop",
      { accountId: ACCOUNT_ID, referenceSource: "shoptet", sourceIdentifier: "eshop-1", name: "Main e-shop" },
    ],
  }),
  responses: { 201: answer("The activated pair.", Source, { activated: ["Activated", source] }) },
  errors: {
    400: {
      examples: {
        missing: ["A part missing", thrown(() => parseInput(activateSourceInput, { referenceSource: "shoptet" }))],
      },
    },
    409: {
      description: "The pair is already active.",
      examples: {
        active: ["Already active", sourceConflicts.active("shoptet/eshop-1")],
        builtIn: ["The built-in pair", sourceConflicts.builtIn()],
      },
    },
  },
});

export const deactivateSourceOp = operation({
  method: "delete",
  path: "/api/v2/private/sources/{id}",
  operationId: "deactivateSource",
  tag: TAG,
  summary: "Deactivate a source",
  description: "Deactivates the pair: new orders naming it get 422; existing orders keep it.",
  auth: "accessToken",
  params: idParams("source", SOURCE_ID),
  notFound: "Source",
  responses: { 204: { description: "Deactivated." } },
});

export const operations = [listSourcesOp, activateSourceOp, deactivateSourceOp];
