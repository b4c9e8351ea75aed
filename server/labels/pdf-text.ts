import type { PDFFont } from "pdf-lib";

// Letters with a stroke have no Unicode decomposition, so NFKD alone would turn "Łódź" into "?ódz".
const STROKED: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", Ŧ: "T", ŧ: "t" };

const charsets = new WeakMap<PDFFont, Set<number>>();

function charset(font: PDFFont): Set<number> {
  let set = charsets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charsets.set(font, set);
  }
  return set;
}

/**
 * Text the font can encode. The standard PDF fonts only know WinAnsi and pdf-lib throws on anything else,
 * so a Czech or Polish address would otherwise abort the whole batch. Characters WinAnsi has (é, ü, ß)
 * stay as they are; the rest lose their accents, and what is still unprintable becomes "?".
 */
export function printable(text: string, font: PDFFont): string {
  const known = charset(font);
  const ok = (s: string) => Array.from(s).every((c) => known.has(c.codePointAt(0) ?? -1));
  // Line breaks and tabs would be unencodable too, and a label line is a single line anyway.
  const flat = text.replace(/\s+/g, " ").trim();
  return Array.from(flat, (c) => {
    if (ok(c)) return c;
    const bare = STROKED[c] ?? c.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    return bare !== "" && ok(bare) ? bare : "?";
  }).join("");
}

/** `printable` text cut to `maxWidth` points with an ellipsis, so no line runs off the label. */
export function fitText(text: string, font: PDFFont, size: number, maxWidth: number): string {
  const clean = printable(text, font);
  if (font.widthOfTextAtSize(clean, size) <= maxWidth) return clean;
  const chars = Array.from(clean);
  // Binary search: a 300-character street would otherwise cost 300 width measurements.
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const candidate = chars.slice(0, mid).join("").trimEnd() + "…";
    if (font.widthOfTextAtSize(candidate, size) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? "" : chars.slice(0, lo).join("").trimEnd() + "…";
}
