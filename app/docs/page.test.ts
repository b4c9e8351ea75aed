import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { openApiDocumentJson, operationsOf } from "@/server/openapi/document-json";
import ApiReferencePage from "./page";

/** The hrefs of the links inside the element whose opening tag matches `opening`, up to its closing `</tag>`. */
function linksInside(html: string, opening: RegExp, tag: string): string[] {
  const start = html.search(opening);
  expect(start, String(opening)).toBeGreaterThanOrEqual(0);
  const end = html.indexOf(`</${tag}>`, start);
  return [...html.slice(start, end).matchAll(/href="#([^"]+)"/g)].map((match) => match[1]!);
}

describe("the API reference's navigation", () => {
  const html = renderToStaticMarkup(ApiReferencePage());
  const doc = openApiDocumentJson();
  const operations = operationsOf(doc);
  const tagged = doc.tags.filter((tag) => operations.some(({ op }) => op.tags.includes(tag.name)));

  it("lists every tag and every operation, on wide screens and behind a disclosure on narrow ones, no script needed", () => {
    const sidebar = linksInside(html, /<nav aria-label="Operations" class="sticky/, "nav");
    const disclosure = linksInside(html, /<details class="[^"]*lg:hidden/, "details");
    expect(disclosure).toEqual(sidebar.filter((href) => href !== "top"));
    expect(html).toMatch(/<details class="[^"]*lg:hidden[^"]*"><summary[^>]*>Contents by tag<\/summary>/);
    const tagLinks = sidebar.filter((href) => href.startsWith("tag-"));
    expect(tagLinks).toHaveLength(tagged.length);
    for (const { op } of operations) expect(sidebar, op.operationId).toContain(op.operationId);
    expect(sidebar).toContain("schemas");
  });

  it("every link lands on a section of the page", () => {
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]!));
    const sidebar = linksInside(html, /<nav aria-label="Operations" class="sticky/, "nav");
    for (const href of sidebar) expect(ids.has(href), href).toBe(true);
    for (const tag of tagged)
      expect(html, tag.name).toMatch(new RegExp(`<section id="(tag-[^"]+)"[^>]*><h2[^>]*>${tag.name}</h2>`));
  });
});
