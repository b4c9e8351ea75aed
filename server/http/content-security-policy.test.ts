import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes, pageContentSecurityPolicy } from "./content-security-policy";

const sha256 = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;
const scriptSrc = (policy: string) => policy.split("; ").find((d) => d.startsWith("script-src "));

describe("a page's Content-Security-Policy", () => {
  it("allows a rendered page's scripts by its request's nonce, and what they load", () => {
    expect(scriptSrc(pageContentSecurityPolicy({ nonce: "abc" }, { development: false }))).toBe(
      "script-src 'self' 'nonce-abc' 'strict-dynamic'",
    );
  });

  it("allows a prerendered page's inline scripts by hash and its script files from this origin (no nonce)", () => {
    const policy = pageContentSecurityPolicy({ hashes: ["sha256-a", "sha256-b"] }, { development: false });
    expect(scriptSrc(policy)).toBe("script-src 'self' 'sha256-a' 'sha256-b'");
    expect(scriptSrc(policy)).not.toContain("unsafe-inline");
  });
});

describe("inlineScriptHashes", () => {
  it("hashes each inline script's text exactly as written, once, and no script file", () => {
    const first = "(self.__next_f=self.__next_f||[]).push([0])";
    const second = 'self.__next_f.push([1,"a \\u003c/b\\u003e\\n"])';
    const html = [
      `<html><head><script src="/_next/static/chunks/main.js" async=""></script>`,
      `<script>${first}</script></head><body><p>text</p>`,
      `<script id="x">${second}</script><script>${first}</script><script SRC="/b.js"></script><script></script>`,
      `</body></html>`,
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([sha256(first), sha256(second)]);
  });
});
