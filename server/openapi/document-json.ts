import { openApiJson } from "./document";

/**
 * The generated document as plain JSON, typed for the parts that readers of it (the `/docs` page, the
 * tests) walk. The generator's own types are unions of every OpenAPI version and of `$ref`s everywhere.
 */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  contentMediaType?: string;
};

export type ExampleJson = { summary?: string; description?: string; value: unknown };
export type MediaJson = { schema?: JsonSchema; examples?: Record<string, ExampleJson> };
export type HeaderJson = { description?: string; required?: boolean; schema?: JsonSchema };
export type ResponseJson = {
  description: string;
  headers?: Record<string, HeaderJson>;
  content?: Record<string, MediaJson>;
};
export type ParameterJson = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  description?: string;
  style?: string;
  explode?: boolean;
  example?: unknown;
  schema: JsonSchema;
};
export type OperationJson = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: ParameterJson[];
  requestBody?: { required?: boolean; description?: string; content: Record<string, MediaJson> };
  responses: Record<string, ResponseJson>;
};
export type SecuritySchemeJson = {
  type: string;
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
  description?: string;
};
export type DocumentJson = {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationJson>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, SecuritySchemeJson> };
};

export type OperationEntry = { method: string; path: string; op: OperationJson };

/** The document as served from `origin` (the default stands in where no request is at hand). */
export const openApiDocumentJson = (origin = "http://localhost"): DocumentJson =>
  JSON.parse(openApiJson(origin)) as DocumentJson;

/** Every operation, in document order. */
export const operationsOf = (doc: DocumentJson): OperationEntry[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );

/** `#/components/schemas/ShippingOrder` → `ShippingOrder`. */
export const refName = (ref: string): string => ref.replace("#/components/schemas/", "");
