/**
 * The Content-Security-Policy of a page: scripts only from this origin or carrying this request's nonce, and what
 * they load (`'strict-dynamic'`), never inline script text an attacker could inject. Next reads the nonce from
 * this header on the request and puts it on its own bootstrap scripts (proxy.ts sets both). Styles keep
 * `'unsafe-inline'`: React renders `style` attributes (charts, progress bars), which a nonce cannot cover, and a
 * style cannot run code. Development adds what its tooling needs (eval for React's error stacks, the HMR socket).
 */
export function pageContentSecurityPolicy(
  nonce: string,
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
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
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

/** 128 random bits, base64: unguessable, and new for every page request. */
export const newNonce = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
