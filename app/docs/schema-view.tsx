import { refName, type JsonSchema } from "@/server/openapi/document-json";
import { schemaHref } from "@/server/openapi/reference-sections";
import { Markdown } from "./markdown";

/** `string`, `integer | null`, `ShippingOrder[]`, `ShippingOrderRequest | ShippingOrderRequest[]`. */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return refName(schema.$ref);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeLabel).join(" | ");
  if (schema.allOf) return schema.allOf.map(typeLabel).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types.map((t) => (t === "array" && schema.items ? `${typeLabel(schema.items)}[]` : t));
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  return label.join(" | ") || "any";
}

/** The rules of a schema a reader needs next to its type: bounds, pattern, format, allowed values. */
function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.format) out.push(schema.format);
  if (schema.enum) out.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    out.push(`length ${schema.minLength ?? 0}..${schema.maxLength ?? "∞"}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    out.push(`${schema.minItems ?? 0}..${schema.maxItems ?? "∞"} items`);
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.items && !schema.items.$ref) out.push(...constraints(schema.items).map((c) => `each: ${c}`));
  return out;
}

/** The object whose properties a schema shows: itself, or the items of an array of inline objects. */
const objectOf = (schema: JsonSchema): JsonSchema | undefined =>
  schema.properties ? schema : schema.items?.properties ? schema.items : undefined;

function TypeLink({ schema }: { schema: JsonSchema }) {
  const ref = schema.$ref ?? schema.items?.$ref;
  const label = typeLabel(schema);
  if (ref) {
    return (
      <a href={schemaHref(refName(ref))} className="font-mono text-xs text-blue-700 underline">
        {label}
      </a>
    );
  }
  return <span className="font-mono text-xs text-violet-700">{label}</span>;
}

/** A schema as a list of its properties, nested objects indented; component references link to their section. */
export function SchemaView({ schema }: { schema: JsonSchema }) {
  const object = objectOf(schema);
  const variants = schema.anyOf ?? schema.oneOf;
  return (
    <div className="text-sm">
      <div className="flex flex-wrap items-baseline gap-2">
        <TypeLink schema={schema} />
        {constraints(schema).map((c) => (
          <span key={c} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-600">
            {c}
          </span>
        ))}
      </div>
      {schema.description && !schema.$ref && <Markdown text={schema.description} className="text-slate-600" />}
      {variants && !variants.every((v) => v.$ref || v.items?.$ref) && (
        <ul className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3">
          {variants.map((v, i) => (
            <li key={i}>
              <SchemaView schema={v} />
            </li>
          ))}
        </ul>
      )}
      {object && <Properties schema={object} />}
    </div>
  );
}

function Properties({ schema }: { schema: JsonSchema }) {
  const required = new Set(schema.required ?? []);
  return (
    <ul className="mt-2 divide-y divide-slate-100 border-l-2 border-slate-200">
      {Object.entries(schema.properties ?? {}).map(([name, property]) => (
        <li key={name} className="py-1.5 pl-3">
          <div className="flex flex-wrap items-baseline gap-2">
            <span className="font-mono text-[13px] font-semibold text-slate-900">{name}</span>
            <TypeLink schema={property} />
            {required.has(name) ? (
              <span className="text-[11px] font-medium uppercase tracking-wide text-rose-600">required</span>
            ) : (
              <span className="text-[11px] uppercase tracking-wide text-slate-500">optional</span>
            )}
            {constraints(property).map((c) => (
              <span key={c} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-600">
                {c}
              </span>
            ))}
          </div>
          {property.description && <Markdown text={property.description} className="text-slate-600" />}
          {objectOf(property) && <Properties schema={objectOf(property)!} />}
        </li>
      ))}
    </ul>
  );
}
