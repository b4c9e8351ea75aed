import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function otherNextBuild(): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (/\bnext(\.js)?\s+build\b/.test(cmd)) return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}

async function waitForOtherBuilds(log: (message: string) => void): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (let pid = otherNextBuild(); pid !== null; pid = otherNextBuild()) {
    if (Date.now() > deadline) throw new Error(`a next build (pid ${pid}) has been running for 10 minutes`);
    log(`waiting for a running next build (pid ${pid}) to finish…`);
    await sleep(5000);
  }
}

const buildId = () => (existsSync(".next/BUILD_ID") ? readFileSync(".next/BUILD_ID", "utf8").trim() : null);

/**
 * Builds when asked (`build: true`) or when there is no build and building is allowed, then copies the build
 * (without caches) to `dir` (outside the checkout: a node_modules link inside it would be walked by vitest and
 * eslint) and serves that copy, so a `next build` someone starts in the shared checkout during the run cannot pull
 * the build from under the server. Returns the directory to pass to `next start` and the build id.
 */
export async function preparedBuild(options: {
  dir: string;
  /** true: always build; false: never (a missing build is an error); "if-missing". */
  build: boolean | "if-missing";
  log: (message: string) => void;
}): Promise<{ dir: string; id: string }> {
  const { dir, log } = options;
  await waitForOtherBuilds(log);
  if (options.build === true || (options.build === "if-missing" && !buildId())) {
    log("building (next build)…");
    const r = spawnSync("npx", ["next", "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (r.status !== 0) throw new Error(`next build failed (${r.status})`);
  }
  for (let attempt = 1; ; attempt++) {
    await waitForOtherBuilds(log);
    const id = buildId();
    if (!id)
      throw new Error(
        ".next/BUILD_ID is missing (no build, a failed or half-written one); run `npx next build` (bench/run.ts: or pass --build)",
      );
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(".next", path.join(dir, ".next"), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !/^\.next\/(cache|dev|trace|trace-build|types|diagnostics)(\/|$)/.test(path.relative(".", src)),
    });
    for (const f of ["next.config.mjs", "package.json"]) cpSync(f, path.join(dir, f));
    symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
    if (existsSync("public")) symlinkSync(path.resolve("public"), path.join(dir, "public"));
    if (buildId() === id && otherNextBuild() === null) return { dir, id };
    if (attempt >= 5) throw new Error("the build kept changing while it was copied");
    log("the build changed while it was copied; copying again…");
  }
}
