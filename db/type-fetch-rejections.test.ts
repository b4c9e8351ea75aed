import { spawn } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";

/**
 * postgres.js discards the promise of a new connection's array-type fetch (porsager/postgres#1192): a backend ended
 * during it (here: a loopback proxy in front of PostgreSQL that closes the connection when the type query passes)
 * is an unhandled rejection, and Node would end `npm run worker` with it (an uncaught CONNECTION_CLOSED whenever
 * a backend is terminated at that moment). The app's pool takes that one rejection (db/type-fetch-rejections.ts)
 * and keeps running; any other unhandled rejection still ends the process.
 */

let proxy: net.Server;
let proxyUrl = "";
let cuts = 0;
/** Type fetches still to cut: one per test that asks for it. */
let toCut = 0;

beforeAll(async () => {
  const target = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.on("data", (chunk: Buffer) => {
      if (toCut > 0 && chunk.includes("pg_catalog.pg_type")) {
        toCut--;
        cuts++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((proxy.address() as net.AddressInfo).port);
  proxyUrl = url.toString();
});

afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

function runChild(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "test/children/type-fetch-cut.ts", proxyUrl, ...args], {
      env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

it("keeps running when a new connection's type fetch is cut, refuses the waiting transaction, runs the next statement", async () => {
  toCut = 1;
  const { code, output } = await runChild();
  expect(cuts, "the proxy cut a type fetch").toBe(1);
  expect(output).toContain("porsager/postgres#1192");
  // The transaction that opened the connection is refused (a 503 to retry), not left waiting for ever.
  expect(output).toContain("transaction: refused as database unavailable");
  expect(output).toContain("statement: ran");
  expect(code, output).toBe(0);
}, 60_000);

it("still ends the process for any other unhandled rejection", async () => {
  const { code, output } = await runChild("other");
  expect(output).toContain("an unrelated rejection nobody handles");
  expect(code, output).not.toBe(0);
}, 60_000);
