import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { referencePaths } from "@/server/openapi/reference-sections";
import { inlineScriptHashes } from "./content-security-policy";
import { PROBLEM_TYPES, problemTypeUri } from "./problem-types";

/**
 * The pages `next build` renders once (their `page.tsx` exports `dynamic = "force-static"`) and the server answers
 * from that build's HTML: the same bytes (and ETag) for every request, no rendering. Every other page renders per
 * request under a nonce. A page listed here whose HTML the build lacks is served as a rendered one.
 */
export const PRERENDERED_PAGES: ReadonlySet<string> = new Set([
  ...referencePaths(),
  ...[...PROBLEM_TYPES.keys()].map(problemTypeUri),
]);

/** The app's directory: this file is `server/http/` of it, in the sources and in a build's server code alike. */
const appDirectory = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

const scriptHashes = new Map<string, readonly string[] | null>();

/**
 * The CSP hashes of a prerendered page's inline scripts, read from the build's HTML once per process (a process
 * serves one build), or null when the page is not prerendered or the build has no HTML for it.
 */
export function prerenderedPageScriptHashes(
  pathname: string,
  distDirectory = path.join(appDirectory(), ".next"),
): readonly string[] | null {
  if (!PRERENDERED_PAGES.has(pathname)) return null;
  const file = path.join(distDirectory, "server", "app", `${pathname}.html`);
  let hashes = scriptHashes.get(file);
  if (hashes !== undefined) return hashes;
  try {
    hashes = inlineScriptHashes(readFileSync(file, "utf8"));
  } catch {
    hashes = null;
  }
  scriptHashes.set(file, hashes);
  return hashes;
}
