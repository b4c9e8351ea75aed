import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { openApiDocumentJson } from "@/server/openapi/document-json";
import { referenceSections, SCHEMAS_SLUG } from "@/server/openapi/reference-sections";
import { Markdown } from "../markdown";
import { Operation } from "../operation";
import { SchemaView } from "../schema-view";

// Rendered once by the build, like the overview (see app/docs/page.tsx); a section that is not a page answers 404.
export const dynamic = "force-static";
export const dynamicParams = false;

type Params = { params: Promise<{ section: string }> };

export function generateStaticParams(): { section: string }[] {
  return [...referenceSections().map((s) => ({ section: s.slug })), { section: SCHEMAS_SLUG }];
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { section } = await params;
  const name = section === SCHEMAS_SLUG ? "Schemas" : referenceSections().find((s) => s.slug === section)?.name;
  return { title: name ? `${name} · API reference` : "API reference" };
}

/** One page of the reference: a tag's operations, or every component schema. */
export default async function ApiReferenceSectionPage({ params }: Params) {
  const { section: slug } = await params;
  if (slug === SCHEMAS_SLUG) return <Schemas />;
  const section = referenceSections().find((s) => s.slug === slug);
  if (!section) notFound();
  return (
    <section className="mt-4">
      <h1 className="text-2xl font-semibold text-slate-900">{section.name}</h1>
      {section.description && <p className="mt-1 text-sm text-slate-600">{section.description}</p>}
      <div className="mt-4 space-y-6">
        {section.operations.map((entry) => (
          <Operation key={entry.op.operationId} entry={entry} />
        ))}
      </div>
    </section>
  );
}

function Schemas() {
  const schemas = Object.entries(openApiDocumentJson().components.schemas);
  return (
    <section className="mt-4">
      <h1 className="text-2xl font-semibold text-slate-900">Schemas</h1>
      <div className="mt-4 space-y-4">
        {schemas.map(([name, schema]) => (
          <div key={name} id={`schema-${name}`} className="scroll-mt-6 rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-1 font-mono text-sm font-semibold text-slate-900">{name}</h2>
            {schema.description && <Markdown text={schema.description} className="text-sm text-slate-600" />}
            <SchemaView schema={{ ...schema, description: undefined }} />
          </div>
        ))}
      </div>
    </section>
  );
}
