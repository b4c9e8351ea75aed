import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/** What the receiver does with a request: answer with a status, or never answer. */
export type Reply = number | "hang";

export type Receiver = {
  url: string;
  received: Received[];
  /** Decides the answer to each request (200 unless set). */
  reply: (request: Received) => Reply;
  close(): Promise<void>;
};

/** A real HTTP receiver on 127.0.0.1 (port 0) that records every request it gets. */
export async function startReceiver(path = "/hooks"): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: "",
    received: [],
    reply: () => 200,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      receiver.received.push(request);
      const reply = receiver.reply(request);
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(reply, reply >= 300 && reply < 400 ? { location: `${receiver.url}/elsewhere` } : {}).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** Polls `check` until it returns a value (not undefined/false) or the deadline passes. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
  what = "condition",
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
