import { SCHEMAS_SLUG, sectionPath, type ReferenceSection } from "@/server/openapi/reference-sections";
import { MethodBadge } from "./operation";

/** Each tag's page and its operations, then the schemas: plain links, so the contents need no script. */
export function TableOfContents({ sections }: { sections: ReferenceSection[] }) {
  return (
    <>
      {sections.map((section) => (
        <div key={section.slug} className="mt-5">
          <a
            href={sectionPath(section.slug)}
            className="text-[11px] font-semibold uppercase tracking-wide text-slate-500 hover:text-slate-800"
          >
            {section.name}
          </a>
          <ul className="mt-1 space-y-0.5">
            {section.operations.map(({ method, op }) => (
              <li key={op.operationId}>
                <a
                  href={`${sectionPath(section.slug)}#${op.operationId}`}
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
        href={sectionPath(SCHEMAS_SLUG)}
        className="mt-5 block text-[11px] font-semibold uppercase tracking-wide text-slate-500 hover:text-slate-800"
      >
        Schemas
      </a>
    </>
  );
}
