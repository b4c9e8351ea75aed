import type { Metadata } from "next";
import { openApiDocumentJson, operationsOf, type OperationEntry } from "@/server/openapi/document-json";
import { Markdown } from "./markdown";
import { MethodBadge, Operation } from "./operation";
import { SchemaView } from "./schema-view";

export const metadata: Metadata = { title: "API reference" };

// The reference is the same for every visitor and changes only with a build: `next build` renders it once and every
// request is answered from that HTML (with an ETag), no render, no nonce. proxy.ts allows its inline scripts by hash;
// the path is listed in PRERENDERED_PAGES (server/http/prerendered-pages.ts).
export const dynamic = "force-static";

/**
 * The interactive API reference, rendered from the OpenAPI document on the server. It loads nothing from
 * outside this site, so it works on machines without internet access (Scalar's handler would fetch its
 * viewer from a CDN).
 */
export default function ApiReferencePage() {
  const doc = openApiDocumentJson();
  const operations = operationsOf(doc);
  const groups = doc.tags
    .map((tag) => ({ ...tag, operations: operations.filter((o) => o.op.tags.includes(tag.name)) }))
    .filter((g) => g.operations.length > 0);
  const schemas = Object.entries(doc.components.schemas);

  return (
    <div className="flex min-h-screen">
      <a
        href="#content"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium text-blue-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to the reference
      </a>
      <nav
        aria-label="Operations"
        className="sticky top-0 hidden h-screen w-72 shrink-0 overflow-y-auto border-r border-slate-200 bg-white px-4 py-6 lg:block"
      >
        <a href="#top" className="block text-sm font-semibold text-slate-900">
          {doc.info.title}
        </a>
        <div className="mt-1 text-xs text-slate-500">
          v{doc.info.version} · OpenAPI {doc.openapi} ·{" "}
          <a className="text-blue-700 underline" href="/api/v2/openapi.json">
            openapi.json
          </a>
        </div>
        <TableOfContents groups={groups} />
      </nav>

      <main id="top" className="mx-auto w-full max-w-5xl px-6 py-8">
        <header id="content" tabIndex={-1} className="focus:outline-none">
          <h1 className="text-2xl font-semibold text-slate-900">{doc.info.title}</h1>
          <p className="mt-1 text-sm text-slate-500">
            Version {doc.info.version} · the machine-readable document:{" "}
            <a className="font-mono text-blue-700 underline" href="/api/v2/openapi.json">
              /api/v2/openapi.json
            </a>
          </p>
        </header>

        {/* Narrow screens have no sidebar: the same contents behind a disclosure, open with no script. */}
        <details className="mt-4 rounded-lg border border-slate-200 bg-white lg:hidden">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-900">Contents by tag</summary>
          <nav aria-label="Operations by tag" className="border-t border-slate-200 px-3 pb-4">
            <TableOfContents groups={groups} />
          </nav>
        </details>

        <Markdown text={doc.info.description} className="mt-4 text-sm leading-relaxed text-slate-700" />

        {groups.map((group) => (
          <section key={group.name} id={tagAnchor(group.name)} className="mt-10 scroll-mt-6">
            <h2 className="text-xl font-semibold text-slate-900">{group.name}</h2>
            {group.description && <p className="mt-1 text-sm text-slate-600">{group.description}</p>}
            <div className="mt-4 space-y-6">
              {group.operations.map((entry) => (
                <Operation key={entry.op.operationId} entry={entry} />
              ))}
            </div>
          </section>
        ))}

        <section id="schemas" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold text-slate-900">Schemas</h2>
          <div className="mt-4 space-y-4">
            {schemas.map(([name, schema]) => (
              <div
                key={name}
                id={`schema-${name}`}
                className="scroll-mt-6 rounded-lg border border-slate-200 bg-white p-4"
              >
                <h3 className="mb-1 font-mono text-sm font-semibold text-slate-900">{name}</h3>
                {schema.description && <Markdown text={schema.description} className="text-sm text-slate-600" />}
                <SchemaView schema={{ ...schema, description: undefined }} />
              </div>
            ))}
          </div>
        </section>
      </main>
    </div>
  );
}

type Group = { name: string; operations: OperationEntry[] };

/** Each tag's section and its operations, then the schemas: anchors into the page, so it needs no script. */
function TableOfContents({ groups }: { groups: Group[] }) {
  return (
    <>
      {groups.map((group) => (
        <div key={group.name} className="mt-5">
          <a
            href={`#${tagAnchor(group.name)}`}
            className="text-[11px] font-semibold uppercase tracking-wide text-slate-500 hover:text-slate-800"
          >
            {group.name}
          </a>
          <ul className="mt-1 space-y-0.5">
            {group.operations.map(({ method, op }) => (
              <li key={op.operationId}>
                <a
                  href={`#${op.operationId}`}
                  className="flex items-center gap-2 rounded px-1 py-0.5 text-[13px] text-slate-700 hover:bg-slate-100"
                >
                  <MethodBadge method={method} />
                  <span className="truncate">{op.summary}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <a
        href="#schemas"
        className="mt-5 block text-[11px] font-semibold uppercase tracking-wide text-slate-500 hover:text-slate-800"
      >
        Schemas
      </a>
    </>
  );
}

/** The id of a tag's section. */
const tagAnchor = (name: string) => `tag-${slug(name)}`;

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
