import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import * as components from "./components";
import { API_DESCRIPTION } from "./description";
import { operations } from "@/server/operations";
import { routeConfigOf } from "./operation-config";
import { registerSecuritySchemes } from "./security";

/**
 * Every named schema of `components.ts`, by component name: the document's `components.schemas` come from
 * these, and the tests parse examples and real answers with the very schema a response names.
 */
export const componentSchemas: Record<string, z.ZodType> = Object.fromEntries(
  Object.values(components as Record<string, unknown>).flatMap((value) => {
    const id = value instanceof z.ZodType ? value.meta()?.id : undefined;
    return id ? [[id, value as z.ZodType]] : [];
  }),
);

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const TAGS = [
  { name: "Shipping orders", description: "Validate, create, list, read and delete shipping orders." },
  { name: "Labels", description: "Label PDFs: an A6 page per parcel with a Code 128 barcode of its shipping number." },
  {
    name: "Configurations",
    description: "What an API key's account can use: couriers, order sources, courier profiles.",
  },
  {
    name: "Pickup points",
    description:
      "Each courier's directory of pickup points and lockers, searched by text, distance and filters; also with a publishable key (the checkout widget).",
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
  {
    name: "Events",
    description:
      "Order events keyed on the source pair: the pull feed. The same events are pushed to webhook endpoints (see *Private: webhooks*).",
  },
  {
    name: "Statistics",
    description:
      "Figures per period and source pair (or courier, or courier profile), in calendar days of the account's time zone.",
  },
  {
    name: "Private: accounts",
    description: "The user's accounts: name and the time zone statistics count days in (access token).",
  },
  {
    name: "Private: webhooks",
    description:
      "Webhook endpoints of an account, their deliveries and secrets (access token). Deliveries follow the Standard Webhooks specification.",
  },
  { name: "Health", description: "Liveness of the service and its database." },
];

/** The OpenAPI 3.1 document of the partner API, generated from the zod schemas the services validate with. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  for (const op of operations) registry.registerPath(routeConfigOf(op));
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

let built: OpenApiDocument | undefined;

/** The document without `servers`; it cannot change while the process runs, so it is built once. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument();
  return built;
}

/**
 * The document as JSON text, with the platform's origin (PUBLIC_URL) as its one
 * server: the paths carry `/api/v2`, so clients and validators resolve them against the origin.
 */
export function openApiJson(origin: string): string {
  const { openapi, info, ...rest } = openApiDocument();
  return JSON.stringify({ openapi, info, servers: [{ url: origin, description: "This server" }], ...rest });
}
