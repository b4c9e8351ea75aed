import { openApiDocumentJson } from "@/server/openapi/document-json";
import { referenceSections } from "@/server/openapi/reference-sections";
import { TableOfContents } from "./table-of-contents";

/**
 * Every page of the API reference: the contents of all of them beside (on narrow screens above, behind a disclosure)
 * the page's own. Rendered from the OpenAPI document on the server; it loads nothing from outside this site, so it
 * works on machines without internet access (Scalar's handler would fetch its viewer from a CDN).
 */
export default function ApiReferenceLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const doc = openApiDocumentJson();
  const sections = referenceSections(doc);
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
        {/* Plain links between the reference's pages: each is a prerendered document, and a Link would prefetch every
            page's payload the contents show. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/docs" className="block text-sm font-semibold text-slate-900">
          {doc.info.title}
        </a>
        <div className="mt-1 text-xs text-slate-500">
          v{doc.info.version} · OpenAPI {doc.openapi} ·{" "}
          <a className="text-blue-700 underline" href="/api/v2/openapi.json">
            openapi.json
          </a>
        </div>
        <TableOfContents sections={sections} />
      </nav>

      <main className="mx-auto w-full max-w-5xl px-6 py-8">
        <header className="text-sm text-slate-500">
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a href="/docs" className="font-semibold text-slate-900 hover:underline">
            {doc.info.title}
          </a>{" "}
          · version {doc.info.version} · the machine-readable document:{" "}
          <a className="font-mono text-blue-700 underline" href="/api/v2/openapi.json">
            /api/v2/openapi.json
          </a>
        </header>

        {/* Narrow screens have no sidebar: the same contents behind a disclosure, open with no script. */}
        <details className="mt-4 rounded-lg border border-slate-200 bg-white lg:hidden">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-900">Contents by tag</summary>
          <nav aria-label="Operations by tag" className="border-t border-slate-200 px-3 pb-4">
            <TableOfContents sections={sections} />
          </nav>
        </details>

        <div id="content" tabIndex={-1} className="focus:outline-none">
          {children}
        </div>
      </main>
    </div>
  );
}
