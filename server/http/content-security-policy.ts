import { createHash } from "node:crypto";

/**
 * What may run on a page: scripts carrying this request's nonce (a page rendered per request), or the inline scripts
 * of a page prerendered once per build, named by their hashes (its HTML is the same for everyone, so no nonce of a
 * request could be in it).
 */
export type PageScripts = { nonce: string } | { hashes: readonly string[] };

/**
 * The Content-Security-Policy of a page: scripts only from this origin and the page's own inline scripts, never
 * inline script text an attacker could inject. A rendered page's inline scripts carry the nonce (Next reads it from
 * this header on the request and puts it on its bootstrap scripts; proxy.ts sets both) and what they load is allowed
 * (`'strict-dynamic'`). A prerendered page's are allowed by hash, and its `<script src>` tags by `'self'` (which
 * `'strict-dynamic'` would disable). Styles keep `'unsafe-inline'`: React renders `style` attributes (charts, progress
 * bars), which a nonce cannot cover, and a style cannot run code. Development adds what its tooling needs (eval for
 * React's error stacks, the HMR socket).
 */
export function pageContentSecurityPolicy(
  scripts: PageScripts,
  {
    development,
    mapTileOrigin = null,
    frameAncestor = null,
  }: {
    development: boolean;
    mapTileOrigin?: string | null;
    /** The one origin that may frame the page (the checkout widget's shop); none by default. */
    frameAncestor?: string | null;
  },
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources(scripts), ...(development ? ["'unsafe-eval'"] : [])].join(" "),
    "style-src 'self' 'unsafe-inline'",
    // The pickup-point picker's map tiles (MAP_TILE_URL) are images from the tile server's origin.
    `img-src 'self' data: blob:${mapTileOrigin ? ` ${mapTileOrigin}` : ""}`,
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    `frame-ancestors ${frameAncestor ?? "'none'"}`,
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

const scriptSources = (scripts: PageScripts): string[] =>
  "nonce" in scripts ? [`'nonce-${scripts.nonce}'`, "'strict-dynamic'"] : scripts.hashes.map((hash) => `'${hash}'`);

/** An inline `<script>` (no `src`) and its text, as Next writes them into a page's HTML. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The CSP hash sources (`sha256-…`) of the inline scripts of a page's HTML, each once, in document order. The browser
 * hashes a script's text exactly as it stands between the tags, which is what is hashed here.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = [...html.matchAll(INLINE_SCRIPT)]
    .map(([, text]) => text!)
    .filter((text) => text.length > 0)
    .map((text) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`);
  return [...new Set(hashes)];
}

/** 128 random bits, base64: unguessable, and new for every page request. */
export const newNonce = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
