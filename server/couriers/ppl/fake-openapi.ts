import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { readFileSync } from "node:fs";
import path from "node:path";

/*
 * The fake PPL's check of request bodies against PPL's own OpenAPI document (`fixtures/openapi-schemas.json`, the
 * schemas copied unchanged from PPL's `api.json`), with ajv: what PPL's API would refuse with a 400 problem, the fake
 * refuses the same way, naming each field as ASP.NET's model validation does (`shipments[0].recipient.zipCode`).
 */

type Json = Record<string, unknown>;

const document = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "fixtures", "openapi-schemas.json"), "utf8"),
) as { components: { schemas: Record<string, Json> } };

const EMPTY = "#/components/schemas/EmptyNullableObject";

/**
 * PPL's document writes an optional object as `oneOf: [Model, EmptyNullableObject]`, where `EmptyNullableObject`
 * ("Injected nullable object") is `{ nullable: true }` without a type, which JSON Schema reads as "anything": every
 * object would then match both and fail `oneOf`. What PPL means is "the model, or null", written here as
 * `anyOf: [{ type: "null" }, Model]`; everything else is used as PPL wrote it.
 */
function meaning(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(meaning);
  if (typeof schema !== "object" || schema === null) return schema;
  const object = schema as Json;
  const oneOf = object.oneOf as Json[] | undefined;
  if (oneOf?.length === 2 && oneOf[1]?.$ref === EMPTY) {
    const { oneOf: _oneOf, ...rest } = object;
    return { ...(meaning(rest) as Json), anyOf: [{ type: "null" }, meaning(oneOf[0])] } as Json;
  }
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, meaning(value)]));
}

// `strict: false`: the document carries OpenAPI's own keywords (`nullable` is understood by ajv, `components` and
// `description` are not schema keywords) and was not written for ajv's strict mode.
const ajv = new Ajv({ allErrors: true, strict: false });
// ajv-formats is CommonJS: its plugin is the module itself or its `default`, depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;
addFormats(ajv);
ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
// A .NET TimeSpan ("08:00:00"), as PPL's `AccessPointWorkHourModel` writes opening hours.
ajv.addFormat("date-span", { type: "string", validate: (s: string) => /^\d{2}:\d{2}:\d{2}$/.test(s) });
ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
ajv.addSchema({ $id: "ppl-api.json", components: meaning(document.components) as Json });

const validatorOf = (model: string): ValidateFunction =>
  ajv.compile({ $ref: `ppl-api.json#/components/schemas/${model}` });

const validators = {
  createShipmentBatch: validatorOf("Eps.Api.MyApi2.Web.Models.ShipmentBatch.CreateShipmentBatchModel"),
  updateShipmentBatch: validatorOf("Eps.Api.MyApi2.Web.Models.ShipmentBatch.UpdateShipmentBatchModel"),
  problem: validatorOf("Eps.Api.Infrastructure.WebApi.Model.ProblemJsonModel"),
  accessPoint: validatorOf("Eps.Api.MyApi2.Web.Models.AccessPoint.AccessPointModel"),
};

/** `/shipments/0/recipient` → `shipments[0].recipient` (ASP.NET's model-state keys). */
const pathOf = (pointer: string, child?: string): string =>
  [...pointer.split("/").slice(1), ...(child === undefined ? [] : [child])]
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");

/** One ajv error as ASP.NET's model validation words it, at its key. */
function problemOf(error: ErrorObject): [key: string, message: string] {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    const field = String(params.missingProperty);
    return [pathOf(error.instancePath, field), `The ${field} field is required.`];
  }
  if (error.keyword === "additionalProperties") {
    const field = String(params.additionalProperty);
    return [pathOf(error.instancePath, field), `Could not find member '${field}' on the object.`];
  }
  const key = pathOf(error.instancePath);
  const field =
    key
      .split(".")
      .at(-1)
      ?.replace(/\[\d+\]$/, "") || "body";
  switch (error.keyword) {
    case "maxLength":
    case "maxItems":
      return [
        key,
        `The field ${field} must be a string or array type with a maximum length of '${String(params.limit)}'.`,
      ];
    case "minLength":
    case "minItems":
      return [
        key,
        `The field ${field} must be a string or array type with a minimum length of '${String(params.limit)}'.`,
      ];
    case "minimum":
    case "maximum":
      return [
        key,
        `The field ${field} must be ${error.keyword === "minimum" ? "at least" : "at most"} ${String(params.limit)}.`,
      ];
    case "pattern":
      return [key, `The field ${field} must match the regular expression '${String(params.pattern)}'.`];
    case "enum":
      return [key, `The value is not valid for ${field}: one of ${(params.allowedValues as unknown[]).join(", ")}.`];
    case "type":
    case "format":
      return [
        key,
        `The JSON value could not be converted to the type of ${field} (${String(params.type ?? params.format)}).`,
      ];
    default:
      return [key, `The field ${field} is not valid (${error.message ?? error.keyword}).`];
  }
}

/**
 * The errors of a body under one of PPL's request models, keyed as PPL's problem answers key them; null when the
 * body is valid. The `null` branch of an optional object is left out of the answer (it is how PPL's document says
 * "optional", not a rule a caller broke).
 */
export function openApiErrorsOf(
  model: "createShipmentBatch" | "updateShipmentBatch" | "accessPoint",
  body: unknown,
): Record<string, string[]> | null {
  const validate = validators[model];
  if (validate(body)) return null;
  const errors: Record<string, string[]> = {};
  for (const error of validate.errors ?? []) {
    if (error.keyword === "anyOf" || /\/anyOf\/0\/type$/.test(error.schemaPath)) continue;
    const [key, message] = problemOf(error);
    (errors[key || "$"] ??= []).push(message);
  }
  return errors;
}

/** Whether an answer is PPL's problem shape (`ProblemJsonModel`), for the fake's own answers. */
export const isPplProblem = (body: unknown): boolean => validators.problem(body) === true;
