/**
 * `npm run test:walks`: every curl walk of the README and of the docs it links to, pasted into a shell as a newcomer
 * would, against a fresh `npm run dev`. A walk is every ```bash block with a `curl` in it, run in the order the file
 * gives them, in one `bash -euo pipefail` shell; a doc's walks run after the README's (they use its `TOKEN`, `KEY`
 * and `ORDER`). Every curl's answer is checked (a 4xx or 5xx fails the step, its body printed), and the walks' own
 * `jq -e` fail on a missing value. Exits 1 naming the file and line that failed.
 *
 * The server gets a free port, a fresh data directory (an empty embedded PGlite, migrated and seeded) and the local
 * fake couriers; `localhost:3000` in the walks' text is that port, and the webhook walk's receiver port (4000) another
 * free one, so a developer's own server on 3000 is left alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type Block = { file: string; /** 1-based line of the block's first code line */ line: number; text: string };

/** The ```bash blocks of a markdown file that call curl, in order. */
export function extractWalkBlocks(markdown: string, file: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```bash") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== "```") end++;
    const text = lines.slice(start, end).join("\n");
    if (/\bcurl\b/.test(text)) blocks.push({ file, line: start + 1, text });
    i = end;
  }
  return blocks;
}

/** The docs/*.md pages the README links to, in the README's order (each once). */
export function linkedDocs(readme: string): string[] {
  const seen = new Set<string>();
  for (const match of readme.matchAll(/\]\((docs\/[\w.-]+\.md)(?:#[^)]*)?\)/g)) seen.add(match[1]!);
  return [...seen];
}

/** The walk's text with the ports it names (`localhost:N`, a receiver's `listen(N)`) moved to free ones. */
export function substitutePorts(text: string, ports: Record<number, number>): string {
  return text.replace(/\b(localhost:|listen\()(\d+)\b/g, (whole, prefix: string, port: string) =>
    ports[Number(port)] === undefined ? whole : `${prefix}${ports[Number(port)]}`,
  );
}

/**
 * curl as the walks call it, but a transfer error or an HTTP error answer fails the command (the walks use `-s`,
 * which hides both) and the answer's body goes to stderr too, so a failed step shows why.
 */
const CURL_CHECKED = String.raw`curl() {
  local __answer __status=0
  __curl_args="$*"
  __answer=$(mktemp)
  command curl --fail-with-body -sS "$@" >"$__answer" || __status=$?
  cat "$__answer"
  if [ "$__status" != 0 ]; then
    printf '\ncurl failed (exit %s); the answer:\n' "$__status" >&2
    cat "$__answer" >&2
    printf '\n' >&2
  fi
  rm -f "$__answer"
  return "$__status"
}`;

/**
 * Writes one shell script per block (blank lines before the text, so bash's $LINENO is the markdown's line) and the
 * driver that sources them in order; returns the driver's path.
 */
export function writeWalkScripts(dir: string, blocks: Block[], ports: Record<number, number>): string {
  mkdirSync(dir, { recursive: true });
  const sources = blocks.map((block, index) => {
    const script = path.join(dir, `block-${index}.sh`);
    writeFileSync(script, "\n".repeat(block.line - 1) + substitutePorts(block.text, ports) + "\n");
    return `__walk_file=${JSON.stringify(block.file)}\nsource ${JSON.stringify(script)}`;
  });
  const driver = path.join(dir, "walk.sh");
  writeFileSync(
    driver,
    [
      CURL_CHECKED,
      // A command inside a sourced block reports the block's own line, which is the markdown's line.
      String.raw`__walk_failed() {
  local what=$2
  # A curl that fails as a whole command reports its function's last command, on the caller's line.
  [ "$what" != 'return "$__status"' ] || what="curl $__curl_args"
  printf '
WALK FAILED at %s:%s: %s
' "$__walk_file" "$1" "$what" >&2
}`,
      `trap '__walk_failed "$LINENO" "$BASH_COMMAND"' ERR`,
      ...sources,
      "",
    ].join("\n"),
  );
  return driver;
}

export type WalkResult = { ok: boolean; output: string; failure?: string };

/**
 * Runs a driver with `bash -euo pipefail` in its own process group (a walk may leave a receiver running in the
 * background: the group is ended when the walk ends) and in `cwd` (files the walk downloads land there).
 */
export function runWalkScript(
  driver: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<WalkResult> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-euo", "pipefail", driver], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\nWALK FAILED: still running after ${options.timeoutMs} ms\n`;
      endGroup(child, "SIGKILL");
    }, options.timeoutMs ?? 180_000);
    // What the walk left in the background holds its output open: the walk's end is its shell's exit.
    let code: number | null = null;
    child.on("exit", (exitCode) => {
      code = exitCode;
      endGroup(child, "SIGTERM");
    });
    child.on("close", () => {
      clearTimeout(timer);
      const failure = /WALK FAILED.*$/m.exec(output)?.[0];
      resolve({ ok: code === 0, output, failure: code === 0 ? undefined : (failure ?? `bash exited ${code}`) });
    });
  });
}

function endGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is already gone.
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function poll<T>(what: string, deadlineMs: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${deadlineMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The walks expect a directory to pick a pickup point from: the dev server's worker syncs the synthetic one shortly
 * after it starts. Waits with an API key of its own (the walks make theirs).
 */
async function waitForPickupPoints(base: string): Promise<void> {
  const json = async (url: string, init?: RequestInit) => {
    const answer = await fetch(url, init);
    if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
    return (await answer.json()) as Record<string, unknown>;
  };
  const post = (body: unknown, token?: string): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const { accessToken } = await json(
    `${base}/api/v2/auth/token`,
    post({ email: "partner@demo.test", password: "demo-partner-2026" }),
  );
  const { key } = await json(`${base}/api/v2/private/api-keys`, post({ name: "check-walks" }, accessToken as string));
  await poll("the pickup-point directory's first sync", 240_000, async () => {
    const { items } = await json(`${base}/api/v2/couriers`, { headers: { "x-api-key": key as string } });
    const packeta = (items as { id: string; pickupPoints?: { count: number } }[]).find((c) => c.id === "packeta");
    return packeta?.pickupPoints?.count ? true : undefined;
  });
}

async function main(): Promise<number> {
  const root = path.resolve(import.meta.dirname, "..");
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const readmeBlocks = extractWalkBlocks(readme, "README.md");
  const docs = linkedDocs(readme)
    .map((doc) => ({ doc, blocks: extractWalkBlocks(readFileSync(path.join(root, doc), "utf8"), doc) }))
    .filter(({ blocks }) => blocks.length > 0);

  const temp = mkdtempSync(path.join(tmpdir(), "sop-walks-"));
  const [appPort, receiverPort] = [await freePort(), await freePort()];
  const ports = { 3000: appPort, 4000: receiverPort };
  const base = `http://localhost:${appPort}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(appPort), DATA_DIR: path.join(temp, "data") };
  // The walks are the README's: the embedded database and the local fakes, whatever this shell points at.
  for (const name of [
    "DATABASE_URL",
    "COURIER_PACKETA_URL",
    "COURIER_PPL_URL",
    "PACKETA_API_KEY",
    "PPL_DIRECTORY_CLIENT_ID",
    "PUBLIC_URL",
  ])
    delete env[name];
  env.PUBLIC_URL = base;
  const server = spawn("npm", ["run", "dev"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let serverOutput = "";
  server.stdout!.on("data", (chunk: Buffer) => (serverOutput += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (serverOutput += chunk.toString()));
  let serverExited = false;
  server.on("exit", () => (serverExited = true));

  const failures: string[] = [];
  try {
    console.log(`check-walks: npm run dev on port ${appPort} (data in ${temp})`);
    const health = await poll("GET /api/health", 240_000, async () => {
      if (serverExited) return "exited";
      return (await fetch(`${base}/api/health`)).ok ? "up" : undefined;
    });
    if (health === "exited") throw new Error("npm run dev exited before it answered GET /api/health");
    await waitForPickupPoints(base);

    // Each walk in a shell of its own; a doc's after the README's, whose variables it uses.
    const walks = [
      { name: "README.md", blocks: readmeBlocks },
      ...docs.map(({ doc, blocks }) => ({ name: doc, blocks: [...readmeBlocks, ...blocks] })),
    ];
    for (const [index, walk] of walks.entries()) {
      const dir = path.join(temp, `walk-${index}`);
      const driver = writeWalkScripts(dir, walk.blocks, ports);
      const started = Date.now();
      const result = await runWalkScript(driver, {
        cwd: dir,
        // `node -e` in a walk requires this project's dependencies, as it would in the project's directory.
        env: { ...process.env, NODE_PATH: path.join(root, "node_modules") },
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (result.ok) console.log(`check-walks: ${walk.name}: ok (${seconds} s)`);
      else {
        console.log(`check-walks: ${walk.name}: FAILED (${seconds} s)\n${result.output}`);
        failures.push(`${walk.name}: ${result.failure}`);
        if (walk.name === "README.md") break; // every other walk starts with it
      }
    }
  } catch (error) {
    failures.push((error as Error).message);
    console.log(`check-walks: npm run dev's output:\n${serverOutput.slice(-20_000)}`);
  } finally {
    await stopServer(server, () => serverExited);
    rmSync(temp, { recursive: true, force: true });
  }
  if (failures.length === 0) {
    console.log("check-walks: every walk passed");
    return 0;
  }
  console.log(`check-walks: ${failures.length} failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  return 1;
}

/** SIGTERM to the dev server's process group (npm, tsx, Next, its workers), SIGKILL if it is still there after 60 s. */
async function stopServer(server: ChildProcess, exited: () => boolean): Promise<void> {
  endGroup(server, "SIGTERM");
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      process.kill(-server.pid!, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!exited()) console.log("check-walks: npm run dev did not stop within 60 s; killed");
  endGroup(server, "SIGKILL");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
