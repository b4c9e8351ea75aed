import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "./content-security-policy";
import { prerenderedPageScriptHashes } from "./prerendered-pages";

/** A build directory whose prerendered /docs is `html`. */
function build(html: string): string {
  const dist = mkdtempSync(path.join(tmpdir(), "sop-dist-"));
  mkdirSync(path.join(dist, "server", "app"), { recursive: true });
  writeFileSync(path.join(dist, "server", "app", "docs.html"), html);
  return dist;
}

describe("prerendered pages' script hashes", () => {
  it("come from the build's HTML of the page, read once per process", () => {
    const html = "<html><body><script>self.__next_f.push([0])</script></body></html>";
    const dist = build(html);
    expect(prerenderedPageScriptHashes("/docs", dist)).toEqual(inlineScriptHashes(html));
    // The build's HTML does not change while the process serves it: a later change is not read again.
    writeFileSync(path.join(dist, "server", "app", "docs.html"), "<script>other()</script>");
    expect(prerenderedPageScriptHashes("/docs", dist)).toEqual(inlineScriptHashes(html));
  });

  it("are none for a page rendered per request, or a build without the page's HTML", () => {
    const dist = build("<script>x()</script>");
    writeFileSync(path.join(dist, "server", "app", "sign-in.html"), "<script>y()</script>");
    expect(prerenderedPageScriptHashes("/sign-in", dist)).toBeNull();
    expect(prerenderedPageScriptHashes("/docs", mkdtempSync(path.join(tmpdir(), "sop-dist-")))).toBeNull();
  });
});
