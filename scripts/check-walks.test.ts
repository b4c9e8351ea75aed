import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  extractWalkBlocks,
  linkedDocs,
  runWalkScript,
  substitutePorts,
  writeWalkScripts,
  type Block,
} from "./check-walks";

// No dev server here: a tiny one stands for the app, answering 400 on /refused (what a placeholder password got) and
// a JSON body elsewhere.
let server: Server;
let port: number;
let temp: string;
beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), "sop-walks-test-"));
  server = createServer((req, res) => {
    if (req.url === "/refused") res.writeHead(400, { "content-type": "application/problem+json" });
    res.end(req.url === "/refused" ? '{"code":"VALIDATION_FAILED","field":"apiPassword"}' : '{"id":"p1","items":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(temp, { recursive: true, force: true });
});

const markdown = (...blocks: string[]) =>
  ["# A page", "", "Some prose.", "", ...blocks.flatMap((b) => ["```bash", b, "```", ""])].join("\n");

async function walk(text: string, name: string) {
  const blocks = extractWalkBlocks(markdown("npm run dev", text), "docs/page.md");
  const dir = path.join(temp, name);
  return runWalkScript(writeWalkScripts(dir, blocks, { 3000: port }), { cwd: dir, timeoutMs: 20_000 });
}

describe("extracting walks", () => {
  it("takes the bash blocks that call curl, with the markdown line of their first code line", () => {
    const blocks = extractWalkBlocks(markdown("npm install", "A=1\ncurl -s localhost:3000/x", "```ts"), "README.md");
    expect(blocks).toEqual<Block[]>([{ file: "README.md", line: 10, text: "A=1\ncurl -s localhost:3000/x" }]);
  });

  it("lists the docs the README links to, in order, once each", () => {
    expect(linkedDocs("[a](docs/b.md) [c](docs/a.md#x) [d](docs/b.md) [e](https://x/docs/c.md)")).toEqual([
      "docs/b.md",
      "docs/a.md",
    ]);
  });

  it("moves localhost ports and a receiver's listen port, and no other number", () => {
    expect(
      substitutePorts("curl localhost:3000/a?n=3000 http://localhost:4000 .listen(4000) localhost:30001", {
        3000: 41234,
        4000: 41235,
      }),
    ).toBe("curl localhost:41234/a?n=3000 http://localhost:41235 .listen(41235) localhost:30001");
  });
});

describe("running a walk", () => {
  it("passes a walk whose every step answers", async () => {
    const result = await walk(
      'ID=$(curl -s localhost:3000/ok | jq -er .id)\ncurl -s "localhost:3000/ok/$ID" | jq -e .items',
      "passing",
    );
    expect(result).toMatchObject({ ok: true });
  });

  // `curl -s … | jq` passes a 400 on: the walk ran on with an empty variable. The runner fails the step.
  it("fails on a 4xx answer, naming the file and line, with the answer's body", async () => {
    const result = await walk(
      "curl -s localhost:3000/ok | jq\ncurl -s -X POST localhost:3000/refused \\\n  -d '{}' | jq\necho never",
      "refused",
    );
    expect(result.ok).toBe(false);
    expect(result.failure).toMatch(/^WALK FAILED at docs\/page\.md:1[12]:/);
    expect(result.output).toContain("curl failed (exit 22)");
    expect(result.output).toContain('"field":"apiPassword"');
    expect(result.output).not.toContain("never");
  });

  it("fails on an unset variable (a step the walk never took)", async () => {
    const result = await walk('curl -s -X POST "localhost:3000/profiles/$PROFILE_ID/check"', "unset");
    expect(result.ok).toBe(false);
    expect(result.output).toContain("PROFILE_ID: unbound variable");
  });

  it("fails when `jq -e` finds no value", async () => {
    const result = await walk("PP=$(curl -s localhost:3000/ok | jq -er '.items[0].id')\necho \"$PP\"", "missing");
    expect(result.ok).toBe(false);
    expect(result.failure).toMatch(/^WALK FAILED at docs\/page\.md:10: PP=/);
  });

  it("fails when the server does not answer", async () => {
    const result = await walk("curl -s localhost:1/health", "down");
    expect(result).toMatchObject({
      ok: false,
      failure: expect.stringMatching(/docs\/page\.md:10: curl -s localhost:1/),
    });
  });

  it("ends what a walk left running in the background", async () => {
    const result = await walk("sleep 300 &\necho $! > sleeper.pid\ncurl -s localhost:3000/ok", "background");
    expect(result.ok).toBe(true);
    const { readFileSync } = await import("node:fs");
    const pid = Number(readFileSync(path.join(temp, "background", "sleeper.pid"), "utf8"));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });
});
