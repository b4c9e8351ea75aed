/** Stands for this site while a callback is resolved: only the path, query and fragment of the result are kept. */
const SITE = "https://on-site.invalid";

/**
 * Where to go after signing in: a path on this site only, so a crafted link cannot send users elsewhere. The value
 * is resolved as the browser will resolve it (the WHATWG URL parser drops tabs and newlines and reads `\` as `/`,
 * so `/\t/evil.example` becomes `//evil.example`), and only a result on this site is kept, as its path, query and
 * fragment; anything else, control characters included, goes to the dashboard.
 */
export function safeCallbackUrl(value: string | string[] | undefined): string {
  const url = Array.isArray(value) ? value[0] : value;
  if (!url || !url.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(url)) return "/dashboard";
  let resolved: URL;
  try {
    resolved = new URL(url, SITE);
  } catch {
    return "/dashboard";
  }
  if (resolved.origin !== SITE) return "/dashboard";
  const path = resolved.pathname + resolved.search + resolved.hash;
  // A path that still begins with `//` would be read as another host when handed on as it is.
  return path.startsWith("//") ? "/dashboard" : path;
}
