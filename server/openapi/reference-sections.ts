import { openApiDocumentJson, operationsOf, type DocumentJson, type OperationEntry } from "./document-json";

/**
 * The API reference in pages: an overview at `/docs`, a page per tag of operations at `/docs/<tag>`, and the schemas at
 * `/docs/schemas`. One page of the whole document was 3 MB of HTML that every visitor loaded and every answer held the
 * server's event loop for; a tag's page is a tenth of it.
 */
export type ReferenceSection = { slug: string; name: string; description?: string; operations: OperationEntry[] };

/** The schemas' page (no tag is called that: `referenceSections` refuses one that would be). */
export const SCHEMAS_SLUG = "schemas";

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Each tag that has operations, in the document's order, with its operations in document order. */
export function referenceSections(doc: DocumentJson = openApiDocumentJson()): ReferenceSection[] {
  const operations = operationsOf(doc);
  const sections = doc.tags
    .map((tag) => ({
      slug: slug(tag.name),
      name: tag.name,
      description: tag.description,
      operations: operations.filter((o) => o.op.tags.includes(tag.name)),
    }))
    .filter((section) => section.operations.length > 0);
  const slugs = sections.map((s) => s.slug);
  if (new Set(slugs).size !== slugs.length || slugs.includes(SCHEMAS_SLUG))
    throw new Error(`The reference's tags must have pages of their own: ${slugs.join(", ")}`);
  return sections;
}

/** The path of a section's page. */
export const sectionPath = (sectionSlug: string) => `/docs/${sectionSlug}`;

/** Where a component schema is explained. */
export const schemaHref = (name: string) => `${sectionPath(SCHEMAS_SLUG)}#schema-${name}`;

/** Where an operation is explained: its first tag's page. */
export function operationHref(sections: ReferenceSection[], operationId: string): string {
  const section = sections.find((s) => s.operations.some((o) => o.op.operationId === operationId));
  return section ? `${sectionPath(section.slug)}#${operationId}` : "/docs";
}

/** Every page of the reference (what the build renders once). */
export const referencePaths = (): string[] => [
  "/docs",
  ...referenceSections().map((s) => sectionPath(s.slug)),
  sectionPath(SCHEMAS_SLUG),
];

/**
 * Where each anchor of the one-page reference lives now (`#createShippingOrders`, `#schema-ShippingOrder`,
 * `#tag-labels`), so a bookmark or a partner's link into the old page still lands on its section.
 */
export function movedAnchors(doc: DocumentJson = openApiDocumentJson()): Record<string, string> {
  const sections = referenceSections(doc);
  const moved: Record<string, string> = { schemas: sectionPath(SCHEMAS_SLUG) };
  for (const section of sections) {
    moved[`tag-${section.slug}`] = sectionPath(section.slug);
    for (const { op } of section.operations) moved[op.operationId] ??= operationHref(sections, op.operationId);
  }
  for (const name of Object.keys(doc.components.schemas)) moved[`schema-${name}`] = schemaHref(name);
  return moved;
}
