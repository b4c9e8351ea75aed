import type { Metadata } from "next";
import { openApiDocumentJson } from "@/server/openapi/document-json";
import { movedAnchors, referenceSections, SCHEMAS_SLUG, sectionPath } from "@/server/openapi/reference-sections";
import { Markdown } from "./markdown";
import { MethodBadge } from "./operation";

export const metadata: Metadata = { title: "API reference" };

// The reference is the same for every visitor and changes only with a build: `next build` renders each of its pages
// once and every request is answered from that HTML (with an ETag), no render, no nonce. proxy.ts allows their inline
// scripts by hash; the paths are listed in PRERENDERED_PAGES (server/http/prerendered-pages.ts).
export const dynamic = "force-static";

/** The reference's overview: what the API is, then every tag's page with its operations. */
export default function ApiReferencePage() {
  const doc = openApiDocumentJson();
  const sections = referenceSections(doc);
  // A link into the one-page reference of earlier versions (`/docs#createShippingOrders`) goes where its anchor is now.
  const moved = JSON.stringify(movedAnchors(doc)).replace(/</g, "\\u003c");
  return (
    <>
      <script
        dangerouslySetInnerHTML={{
          __html: `(()=>{const m=${moved};const to=m[decodeURIComponent(location.hash.slice(1))];if(to)location.replace(to)})()`,
        }}
      />
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{doc.info.title}</h1>
      <Markdown text={doc.info.description} className="mt-4 text-sm leading-relaxed text-slate-700" />

      <h2 className="mt-10 text-xl font-semibold text-slate-900">Operations by tag</h2>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        {sections.map((section) => (
          <section key={section.slug} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h3 className="text-base font-semibold">
              <a className="text-blue-700 hover:underline" href={sectionPath(section.slug)}>
                {section.name}
              </a>
            </h3>
            {section.description && <p className="mt-1 text-sm text-slate-600">{section.description}</p>}
            <ul className="mt-2 space-y-1">
              {section.operations.map(({ method, path, op }) => (
                <li key={op.operationId}>
                  <a
                    href={`${sectionPath(section.slug)}#${op.operationId}`}
                    className="flex items-baseline gap-2 rounded px-1 py-0.5 text-sm hover:bg-slate-100"
                  >
                    <MethodBadge method={method} />
                    <span className="min-w-0">
                      <span className="block text-slate-800">{op.summary}</span>
                      <code className="block truncate font-mono text-[11px] text-slate-500">{path}</code>
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p className="mt-6 text-sm">
        <a className="text-blue-700 underline" href={sectionPath(SCHEMAS_SLUG)}>
          Schemas
        </a>{" "}
        <span className="text-slate-600">: every object the operations take and answer, with its rules.</span>
      </p>
    </>
  );
}
