import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { componentSchemas } from "./components";
import { API_DESCRIPTION } from "./description";
import { registerAuth } from "./paths/auth";
import { registerConfigurations } from "./paths/configurations";
import { EVENTS_TAGS, registerEventsAndWebhooks } from "./paths/events-and-webhooks";
import { registerHealth } from "./paths/health";
import { registerOrdersAndLabels } from "./paths/orders-and-labels";
import { registerPrivate } from "./paths/private";
import { registerShippingOrders } from "./paths/shipping-orders";
import { registerSecuritySchemes } from "./security";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const TAGS = [
  { name: "Shipping orders", description: "Validate, create, list, read and delete shipping orders." },
  { name: "Labels", description: "Label PDFs: an A6 page per parcel with a Code 128 barcode of its shipping number." },
  {
    name: "Configurations",
    description: "What an API key's account can use: couriers, order sources, courier profiles.",
  },
  { name: "Authentication", description: "Access tokens for the private API." },
  { name: "Private: API keys", description: "API keys of an account (access token)." },
  {
    name: "Private: sources",
    description: "Activated (ReferenceSource, SourceIdentifier) pairs of an account (access token).",
  },
  { name: "Private: courier profiles", description: "Courier profiles of an account (access token)." },
  {
    name: "Private: audit trail",
    description: "Who changed an account's integration, and who signed in (access token, owners).",
  },
  ...EVENTS_TAGS,
  { name: "Health", description: "Liveness of the service and its database." },
];

/** The OpenAPI 3.1 document of the partner API, generated from the zod schemas the services validate with. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  registerShippingOrders(registry);
  registerOrdersAndLabels(registry);
  registerConfigurations(registry);
  registerAuth(registry);
  registerPrivate(registry);
  registerEventsAndWebhooks(registry);
  registerHealth(registry);
  const generator = new OpenApiGeneratorV31([...registry.definitions, ...Object.values(componentSchemas)], {
    sortComponents: "alphabetically",
  });
  return generator.generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Shipping-order platform: partner API",
      version: "2.0.0",
      description: API_DESCRIPTION,
    },
    tags: TAGS,
  });
}

let json: string | undefined;

/** The document as JSON text. It cannot change while the process runs, so it is built once. */
export function openApiJson(): string {
  json ??= JSON.stringify(buildOpenApiDocument());
  return json;
}
