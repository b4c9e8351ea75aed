import { env } from "@/server/env";

/**
 * The tile URL template the picker's map loads (`MAP_TILE_URL`, `{z}/{x}/{y}` placeholders). Read here so the pages
 * that show a picker and the Content-Security-Policy's `img-src` name the same host.
 */
export const mapTileUrl = (): string => env().MAP_TILE_URL;

/** The origin tiles come from, for `img-src`; null when the template is not an absolute http(s) URL. */
export function mapTileOrigin(template = mapTileUrl()): string | null {
  try {
    const url = new URL(template.replace(/\{[a-z]\}/g, "0"));
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}
