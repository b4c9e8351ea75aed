import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

export type ProfileSummary = {
  file: string;
  totalMs: number;
  top: { fn: string; where: string; selfMs: number; pct: number }[];
  byArea: { area: string; selfMs: number; pct: number }[];
};

/** Where a frame's code lives: a package, the app's own bundle, Node itself, or idle/GC/program. */
function areaOf(url: string, fn: string): string {
  if (fn === "(idle)") return "(idle)";
  if (fn === "(garbage collector)") return "(garbage collector)";
  if (fn === "(program)") return "(program: native, not JS)";
  if (!url) return "(native/builtin)";
  if (url.startsWith("node:")) return "node core";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    if (pkg === "next") return `next (${rest.slice(1, 4).join("/")})`;
    return pkg;
  }
  if (url.includes("/.next/")) return "app bundle (.next/server)";
  return url;
}

/** The biggest `.cpuprofile` in `dir` (the server process; the CLI wrapper writes a tiny one). */
export function summariseProfiles(dir: string, topN = 20): ProfileSummary | null {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (files.length === 0) return null;
  const file = files[0]!;
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((s, v) => s + v, 0);
  const fns = new Map<string, { fn: string; where: string; self: number }>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const fn = functionName || "(anonymous)";
    const where = url ? `${url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "")}:${lineNumber + 1}` : "";
    const key = `${fn}@${where}`;
    const entry = fns.get(key) ?? { fn, where, self: 0 };
    entry.self += us;
    fns.set(key, entry);
    const area = areaOf(url, fn);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const pct = (us: number) => Math.round((us / total) * 1000) / 10;
  return {
    file,
    totalMs: total / 1000,
    top: [...fns.values()]
      .sort((a, b) => b.self - a.self)
      .slice(0, topN)
      .map((e) => ({ fn: e.fn, where: e.where, selfMs: e.self / 1000, pct: pct(e.self) })),
    byArea: [...areas]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([area, us]) => ({ area, selfMs: us / 1000, pct: pct(us) })),
  };
}
