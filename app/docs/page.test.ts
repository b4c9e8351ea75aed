import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { openApiDocumentJson, operationsOf } from "@/server/openapi/document-json";
import { movedAnchors, referencePaths, referenceSections } from "@/server/openapi/reference-sections";
import ApiReferenceSectionPage from "./[section]/page";
import ApiReferenceLayout from "./layout";
import ApiReferencePage from "./page";

/** The hrefs of the links inside the element whose opening tag matches `opening`, up to its closing `</tag>`. */
function linksInside(html: string, opening: RegExp, tag: string): string[] {
  const start = html.search(opening);
  expect(start, String(opening)).toBeGreaterThanOrEqual(0);
  const end = html.indexOf(`</${tag}>`, start);
  return [...html.slice(start, end).matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
}

/** Each page of the reference as the build renders it (the layout around the page), by its path. */
async function renderedPages(): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const path of referencePaths()) {
    const section = path.split("/")[2];
    const page = section ? await ApiReferenceSectionPage({ params: Promise.resolve({ section }) }) : ApiReferencePage();
    pages.set(path, renderToStaticMarkup(ApiReferenceLayout({ children: page })));
  }
  return pages;
}

const idsOf = (html: string) => new Set([...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]!));

describe("the API reference's pages", async () => {
  const pages = await renderedPages();
  const overview = pages.get("/docs")!;
  const doc = openApiDocumentJson();

  it("lists every tag's page and every operation, on wide screens and behind a disclosure on narrow ones, no script needed", () => {
    const sidebar = linksInside(overview, /<nav aria-label="Operations" class="sticky/, "nav");
    const disclosure = linksInside(overview, /<details class="[^"]*lg:hidden/, "details");
    expect(disclosure).toEqual(sidebar.filter((href) => href.startsWith("/docs/")));
    expect(overview).toMatch(/<details class="[^"]*lg:hidden[^"]*"><summary[^>]*>Contents by tag<\/summary>/);
    for (const section of referenceSections()) expect(sidebar).toContain(`/docs/${section.slug}`);
    for (const { op } of operationsOf(doc))
      expect(
        sidebar.some((href) => href.endsWith(`#${op.operationId}`)),
        op.operationId,
      ).toBe(true);
    expect(sidebar).toContain("/docs/schemas");
  });

  it("every link between its pages lands on a page of the reference and a section of it", () => {
    for (const [path, html] of pages) {
      const links = [...html.matchAll(/href="(\/docs[^"]*)"/g)].map((match) => match[1]!);
      expect(links.length, path).toBeGreaterThan(0);
      for (const link of links) {
        const [target, anchor] = link.split("#");
        expect(pages.has(target!), `${path} → ${link}`).toBe(true);
        if (anchor) expect(idsOf(pages.get(target!)!).has(anchor), `${path} → ${link}`).toBe(true);
      }
    }
  });

  it("sends every anchor of the earlier one-page reference to where it lives now", () => {
    const moved = movedAnchors(doc);
    for (const { op } of operationsOf(doc)) expect(moved[op.operationId], op.operationId).toBeDefined();
    for (const name of Object.keys(doc.components.schemas)) expect(moved[`schema-${name}`]).toBeDefined();
    for (const [anchor, link] of Object.entries(moved)) {
      const [target, id] = link.split("#");
      expect(pages.has(target!), anchor).toBe(true);
      if (id) expect(idsOf(pages.get(target!)!).has(id), anchor).toBe(true);
    }
  });

  it("keeps every page a small part of the whole: no visitor loads the whole document to read one operation", () => {
    const sizes = [...pages.values()].map((html) => html.length);
    const whole = sizes.reduce((a, b) => a + b, 0);
    expect(Math.max(...sizes)).toBeLessThan(whole / 4);
    expect(Math.max(...sizes)).toBeLessThan(400_000);
  });
});
