import { pbkdf2, randomUUID } from "node:crypto";
import { createSocket } from "node:dgram";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { AppError } from "@/server/errors";
import {
  assertTargetAllowed,
  checkTarget,
  createHostResolver,
  isPublicAddress,
  TargetRefused,
  type Resolver,
} from "./check-target";
import { postWebhook } from "./post-webhook";

/** Production rules: no private targets, https only, every name resolved by the stub given. */
const PRODUCTION = { allowPrivate: false };
const resolving =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof TargetRefused ? error.message : error),
  );

describe("checkTarget under production rules", () => {
  it("accepts a name with only public addresses and pins the first", async () => {
    const target = await checkTarget(
      "https://hooks.example.com/in",
      PRODUCTION,
      resolving("93.184.216.34", "2606:2800::1"),
    );
    expect(target).toMatchObject({ address: "93.184.216.34", family: 4 });
  });

  it("refuses a name with any non-public address among its answers, without telling the caller the address", async () => {
    for (const bad of [
      "127.0.0.1",
      "10.1.2.3",
      "169.254.169.254",
      "100.64.0.1",
      "::1",
      "fd00::1",
      "::ffff:127.0.0.1",
    ]) {
      const message = await refusal(
        checkTarget("https://hooks.example.com/", PRODUCTION, resolving("93.184.216.34", bad)),
      );
      expect(message).toBe("must resolve to public addresses only");
    }
  });

  it("answers a registration that resolves to a private address with a 400 that names no address", async () => {
    const refused = await assertTargetAllowed("https://10.20.30.40/in", PRODUCTION).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    const { message, errors } = refused as AppError;
    expect(errors).toEqual([{ field: "url", message: "must resolve to public addresses only" }]);
    expect(JSON.stringify({ message, errors })).not.toMatch(/10\.20\.30\.40/);
  });

  it("refuses IPv4-compatible IPv6 (::a.b.c.d, the whole ::/96) but judges IPv4-mapped by its IPv4", () => {
    expect(isPublicAddress("::8.8.8.8")).toBe(false);
    expect(isPublicAddress("::0808:0808")).toBe(false);
    expect(isPublicAddress("::ffff:8.8.8.8")).toBe(true);
    expect(isPublicAddress("::ffff:192.168.0.1")).toBe(false);
    expect(isPublicAddress("2606:4700::1111")).toBe(true);
  });

  it("allows ports 443, 80 and 1024-65535 only", async () => {
    const publicName = resolving("93.184.216.34");
    for (const ok of [
      "https://h.example.com/",
      "https://h.example.com:443/",
      "https://h.example.com:1024/",
      "https://h.example.com:65535/",
    ])
      expect(await refusal(checkTarget(ok, PRODUCTION, publicName))).toBeNull();
    for (const port of [22, 25, 81, 1023])
      expect(await refusal(checkTarget(`https://h.example.com:${port}/`, PRODUCTION, publicName))).toMatch(
        /port 443, 80 or 1024-65535/,
      );
  });

  it("refuses http://, credentials and a name that does not resolve", async () => {
    expect(await refusal(checkTarget("http://h.example.com/", PRODUCTION, resolving("93.184.216.34")))).toMatch(
      /https/,
    );
    expect(await refusal(checkTarget("https://u:p@h.example.com/", PRODUCTION, resolving("93.184.216.34")))).toMatch(
      /credentials/,
    );
    expect(await refusal(checkTarget("https://h.example.com/", PRODUCTION, resolving()))).toMatch(/does not resolve/);
  });
});

describe("a delivery attempt", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it("is refused when a name that was public at registration resolves to loopback at delivery (DNS rebinding)", async () => {
    const url = "https://hooks.example.com/in";
    await expect(checkTarget(url, PRODUCTION, resolving("93.184.216.34"))).resolves.toBeDefined();
    const outcome = await postWebhook(url, {}, "{}", {
      ...PRODUCTION,
      timeoutMs: 2000,
      resolve: resolving("127.0.0.1"),
    });
    expect(outcome).toMatchObject({ ok: false, status: null });
    // What the partner reads in the delivery's `lastError`: refused, but not where the name pointed.
    expect(outcome.error).toBe("target refused: must resolve to public addresses only");
    expect(receiver.received).toHaveLength(0);
  });

  it("connects to exactly the address it checked, whatever the name resolves to later", async () => {
    const port = new URL(receiver.url).port;
    let lookups = 0;
    const once: Resolver = async () =>
      ++lookups === 1 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.9.9.9", family: 4 }];
    const outcome = await postWebhook(`http://pinned.invalid:${port}/hooks`, { "x-test": "1" }, "{}", {
      allowPrivate: true,
      timeoutMs: 5000,
      resolve: once,
    });
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(lookups).toBe(1);
    expect(receiver.received.at(-1)!.headers.host).toBe(`pinned.invalid:${port}`);
  });

  it("counts a resolver that never answers against its timeout", async () => {
    const hanging: Resolver = () => new Promise(() => {});
    const started = Date.now();
    const outcome = await postWebhook("https://hooks.example.com/", {}, "{}", {
      ...PRODUCTION,
      timeoutMs: 300,
      resolve: hanging,
    });
    expect(outcome).toMatchObject({ ok: false, status: null, error: "no answer within 300 ms" });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

/**
 * A name server on loopback (UDP): answers A queries with `address` (or swallows every query when `address` is null),
 * AAAA with no answer. It counts the queries it got.
 */
async function startNameServer(address: string | null) {
  const socket = createSocket("udp4");
  const server = { queries: 0, port: 0, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
  socket.on("message", (query, peer) => {
    server.queries++;
    if (address === null) return;
    // The question ends after its name (labels, then a zero byte) and its type and class (4 bytes).
    let end = 12;
    while (query[end] !== 0) end += query[end]! + 1;
    end += 5;
    const type = query.readUInt16BE(end - 4);
    const answers =
      type === 1
        ? Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...address.split(".").map(Number)])
        : Buffer.alloc(0);
    const header = Buffer.from(query.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length > 0 ? 1 : 0, 6);
    header.writeUInt32BE(0, 8);
    socket.send(Buffer.concat([header, query.subarray(12, end), answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  server.port = socket.address().port;
  return server;
}

describe("resolving webhook hosts (c-ares, never the thread pool)", () => {
  it("answers while every thread of libuv's pool is busy (argon2 sign-ins share it with dns.lookup)", async () => {
    const dns = await startNameServer("93.184.216.34");
    try {
      const resolve = createHostResolver({ servers: [`127.0.0.1:${dns.port}`] });
      // Four hashes as long as this machine makes them take: the pool's four threads are all busy meanwhile.
      let firstHashDone = Infinity;
      const hashes = Array.from(
        { length: 4 },
        () =>
          new Promise<void>((done) =>
            pbkdf2(randomUUID(), "salt", 500_000, 32, "sha256", () => {
              firstHashDone = Math.min(firstHashDone, Date.now());
              done();
            }),
          ),
      );
      const resolved = await resolve("hooks.example.com");
      const resolvedAt = Date.now();
      expect(resolved).toEqual([{ address: "93.184.216.34", family: 4 }]);
      // Resolved before any hash ended: it waited for no thread of the pool.
      expect(resolvedAt).toBeLessThan(firstHashDone);
      await Promise.all(hashes);
    } finally {
      await dns.close();
    }
  }, 60_000);

  it("cancels the queries of a name server that never answers when the attempt's timeout ends", async () => {
    const dns = await startNameServer(null);
    try {
      const outcome = await postWebhook("https://hooks.example.com/", {}, "{}", {
        ...PRODUCTION,
        timeoutMs: 300,
        resolve: createHostResolver({ servers: [`127.0.0.1:${dns.port}`] }),
      });
      expect(outcome).toMatchObject({ ok: false, status: null, error: "no answer within 300 ms", timedOut: true });
      expect(dns.queries).toBeGreaterThan(0);
    } finally {
      await dns.close();
    }
  });

  it("takes localhost for loopback without asking DNS: refused under production rules, allowed in development", async () => {
    const resolve = createHostResolver({ servers: ["127.0.0.1:9"] });
    expect(await resolve("localhost")).toEqual([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
    const refused = await checkTarget("https://localhost/", PRODUCTION, resolve).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      message: "must resolve to public addresses only",
      detail: "localhost resolves to 127.0.0.1, which is not a public address",
    });
    await expect(checkTarget("http://localhost:4010/", { allowPrivate: true }, resolve)).resolves.toMatchObject({
      address: "127.0.0.1",
    });
  });
});
