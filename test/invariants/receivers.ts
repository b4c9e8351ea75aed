/**
 * Webhook receivers on loopback, one server (one port) per endpoint so the port names the endpoint. Each kind
 * stands for a partner's server the contract must cope with. Every POST is verified (Standard Webhooks) and
 * written to the ledger: (endpoint, webhook-id, arrival, answered). A black hole never reads the request, so it
 * only counts connections.
 */
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type ReceiverKind = "fast" | "slow" | "slow15" | "hanging" | "blackhole" | "err500" | "gone410";

/** Kinds whose endpoint stays healthy: every event must reach them. */
export const HEALTHY_KINDS: ReceiverKind[] = ["fast", "slow", "slow15"];

export type Post = {
  endpoint: string;
  kind: ReceiverKind;
  webhookId: string;
  eventType: string;
  orderId: string | null;
  at: number;
  /** Milliseconds from arrival to the answer written (null: never answered). */
  answeredIn: number | null;
  signatureOk: boolean;
};

export type Receiver = {
  label: string;
  kind: ReceiverKind;
  url: string;
  /** Set once the endpoint is registered (the secret is answered only then). */
  endpointId: string;
  secret: string;
  /** The event types the endpoint subscribes to (null: all). */
  eventTypes: string[] | null;
  posts: Post[];
  /** Connections a black hole accepted (each POST of one needs its own: none is ever answered). */
  connections: number;
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
};

/** Milliseconds a slow receiver takes, chosen from the webhook-id (so a seed's run answers alike). */
const slowDelay = (webhookId: string) => 1000 + (parseInt(webhookId.replace(/-/g, "").slice(-6), 16) % 1000);

export async function startReceiver(label: string, kind: ReceiverKind): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver: Receiver = {
    label,
    kind,
    url: "",
    endpointId: "",
    secret: "",
    eventTypes: null,
    posts: [],
    connections: 0,
    inFlight: 0,
    maxInFlight: 0,
    close: async () => {},
  };
  if (kind === "blackhole") {
    const server = createTcpServer((socket) => {
      receiver.connections += 1;
      sockets.add(socket);
      socket.pause(); // accepted, never read, never answered
      socket.on("error", () => {});
      // The platform gave up long before (its timeout is seconds): let go of the descriptor in a long run.
      setTimeout(() => socket.destroy(), 60_000).unref();
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${label}`;
    receiver.close = () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    return receiver;
  }
  const hanging = new Set<ServerResponse>();
  const server = createHttpServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      let signatureOk = false;
      try {
        new Webhook(receiver.secret).verify(body, headers);
        signatureOk = true;
      } catch {
        signatureOk = false;
      }
      let eventType = "";
      let orderId: string | null = null;
      try {
        const event = JSON.parse(body) as { type: string; data?: { shippingOrder?: { id?: string } } };
        eventType = event.type;
        orderId = event.data?.shippingOrder?.id ?? null;
      } catch {
        // recorded with no type: the checker reports it through the signature
      }
      const post: Post = {
        endpoint: label,
        kind,
        webhookId: headers["webhook-id"],
        eventType,
        orderId,
        at,
        answeredIn: null,
        signatureOk,
      };
      receiver.posts.push(post);
      receiver.inFlight += 1;
      receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
      const done = (status: number) => {
        receiver.inFlight -= 1;
        if (res.destroyed) return;
        res.writeHead(status).end();
        post.answeredIn = Date.now() - at;
      };
      res.on("close", () => {
        if (hanging.delete(res)) receiver.inFlight -= 1;
      });
      switch (kind) {
        case "fast":
          return done(200);
        case "slow":
          return void setTimeout(() => done(200), slowDelay(headers["webhook-id"]));
        case "slow15":
          return void setTimeout(() => done(200), 1500);
        case "err500":
          return done(500);
        case "gone410":
          return done(410);
        case "hanging":
          hanging.add(res);
          return;
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${label}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
