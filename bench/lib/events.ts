import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { percentile } from "./load";
import { cpuMs, viaPooler } from "./servers";

export type EventFigures = {
  /** Deliveries one dedicated worker made per second, draining a backlog to a loopback receiver. */
  deliveriesPerSecond: number;
  /** CPU of the worker process per delivery while it drained the backlog (after its first delivery: not its start-up). */
  workerCpuPerDelivery: number;
  delivered: number;
  /** From the event's `created` (its transaction) to the receiver having the request, at a steady rate. */
  lag: Lag;
  /** The same, after a second endpoint of the account that never answers (each attempt hangs for the timeout). */
  lagWithHangingNeighbour: Lag | null;
};

export type Lag = {
  rate: number;
  /** Events that arrived within the wait (the percentiles are of these). */
  events: number;
  p50: number;
  p99: number;
  max: number;
  /** Orders answered but whose event had not arrived when the wait ended, plus creates that got no answer. */
  lost: number;
  /** Creates answered with no order (an error status) or not answered at all. */
  createErrors: number;
};

/** A loopback receiver that never answers: every attempt to it runs into the webhook timeout. */
export async function startHangingReceiver() {
  let requests = 0;
  const server = createServer(() => {
    requests += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback receiver that answers every POST with 200 after `delayMs` (a slow but healthy receiver). It notes, per
 * `webhook-id`, when the event first arrived and when it was first answered, how many POSTs it had in flight at most,
 * and how many POSTs repeated an event already POSTed (it answers every one within the timeout, so each event's first
 * attempt succeeds and a second POST is one no schedule asked for).
 */
export async function startSlowReceiver(delayMs: number) {
  const state = {
    posts: 0,
    inFlight: 0,
    maxInFlight: 0,
    /** POSTs of an event this receiver had already been sent (answered or still in flight). */
    repeats: 0,
    arrivals: new Map<string, { at: number; answeredAt: number | null }>(),
  };
  const server = createServer((req, res) => {
    state.posts += 1;
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const id = String(req.headers["webhook-id"] ?? "");
    const seen = state.arrivals.get(id);
    if (seen) state.repeats += 1;
    else state.arrivals.set(id, { at: Date.now(), answeredAt: null });
    req.resume();
    const timer = setTimeout(() => {
      const a = state.arrivals.get(id);
      res.end(() => {
        if (a && a.answeredAt === null) a.answeredAt = Date.now();
      });
    }, delayMs);
    res.once("close", () => {
      clearTimeout(timer);
      state.inFlight -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    state,
    /** Events answered 200 at least once. */
    answered: () => [...state.arrivals.values()].filter((a) => a.answeredAt !== null).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback receiver that answers 200 at once and notes when each event arrived. */
export async function startEventReceiver() {
  const arrivals = new Map<string, { at: number; created: string; type: string; orderId: string | null }>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const at = Date.now();
      const event = JSON.parse(body) as {
        id: string;
        created: string;
        type: string;
        data: { shippingOrder?: { id: string } };
      };
      if (!arrivals.has(event.id))
        arrivals.set(event.id, {
          at,
          created: event.created,
          type: event.type,
          orderId: event.data.shippingOrder?.id ?? null,
        });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, arrivals, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * `npm run worker` as a child process against the bench database. `extraEnv`: more environment for it (bench/smoke.ts:
 * the couriers' URLs pointing at its fakes).
 */
export function startWorkerProcess(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; stop: () => Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      DATABASE_URL: process.env.BENCH_POOLER_PORT ? viaPooler(databaseUrl) : databaseUrl,
      ...(process.env.BENCH_POOLER_PORT ? { DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: databaseUrl } : {}),
      AUTH_SECRET: "bench-worker-secret-0123456789-bench-worker",
      SECRETS_KEY: process.env.SECRETS_KEY,
      // Required in production; the worker's events link to it.
      PUBLIC_URL: "http://127.0.0.1:3000",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WORKER_POLLING_SECONDS: "0.5",
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    // A worker that does not stop (attempts hanging past its stop timeout) must not keep the bench waiting.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, stop };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/**
 * Sends `rate` creates per second for `seconds` (each its own order, references `tag-…`) and measures each event's lag
 * from its `created` (the transaction that wrote it) to its arrival at `receiver`, waiting up to `waitMs` after the
 * last create for the last events.
 */
export async function measureLag(options: {
  receiver: { arrivals: Map<string, { at: number; created: string; orderId: string | null }> };
  create: (reference: string) => Promise<Response>;
  tag: string;
  rate: number;
  seconds: number;
  waitMs?: number;
}): Promise<Lag> {
  const { receiver } = options;
  const sent: string[] = [];
  let unsent = 0;
  let refused = 0;
  const total = Math.round(options.rate * options.seconds);
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const reference = `${options.tag}-${Date.now().toString(36)}-${i}`;
    // One retry when the connection failed (e.g. a kept-alive socket the server closed as it was reused). Had the
    // first reached the app, the retry replaces that order (same reference and pair); the lag is measured on
    // the order the answer names. A second failure counts as lost.
    const send = () => options.create(reference);
    pending.push(
      send()
        .catch(send)
        .then(async (res) => {
          const body = (await res.json()) as { items?: { id: string }[] };
          if (body.items?.[0]) sent.push(body.items[0].id);
          else refused++;
        })
        .catch(() => {
          unsent++;
        }),
    );
  }
  await Promise.all(pending);
  const orderIds = new Set(sent);
  const mine = () => [...receiver.arrivals.values()].filter((a) => a.orderId && orderIds.has(a.orderId));
  await waitFor(() => mine().length >= orderIds.size, options.waitMs ?? 60_000);
  const lags = mine()
    .map((a) => a.at - Date.parse(`${a.created}Z`))
    .sort((a, b) => a - b);
  return {
    rate: options.rate,
    events: lags.length,
    p50: percentile(lags, 50),
    p99: percentile(lags, 99),
    max: lags.at(-1) ?? NaN,
    lost: orderIds.size - lags.length + unsent,
    createErrors: unsent + refused,
  };
}

/**
 * The worker's figures: it starts on a backlog of `backlog` queued deliveries (made while the app ran with
 * WORKER=off) and drains it; then creates are sent at `rate` per second for `seconds` and each event's lag
 * measured to its arrival.
 */
export async function measureEventPath(options: {
  databaseUrl: string;
  /** More environment for the worker (startWorkerProcess). */
  workerEnv?: Record<string, string>;
  receiver: Awaited<ReturnType<typeof startEventReceiver>>;
  backlog: number;
  rate: number;
  seconds: number;
  create: (reference: string) => Promise<Response>;
  /** Registers an endpoint that hangs beside the receiver's; the lag is then measured again. */
  addHangingNeighbour?: () => Promise<void>;
}): Promise<EventFigures> {
  const { receiver } = options;
  const worker = startWorkerProcess(options.databaseUrl, options.workerEnv);
  try {
    await waitFor(() => receiver.arrivals.size >= 1, 120_000);
    const cpu0 = { ms: cpuMs([worker.child.pid!]), delivered: receiver.arrivals.size };
    const drained = await waitFor(() => receiver.arrivals.size >= options.backlog, 300_000);
    const workerCpuPerDelivery =
      (cpuMs([worker.child.pid!]) - cpu0.ms) / Math.max(1, receiver.arrivals.size - cpu0.delivered);
    const times = [...receiver.arrivals.values()].map((a) => a.at).sort((a, b) => a - b);
    // From the first arrival (the worker has started) to the last of the backlog.
    const span = (times.at(-1)! - times[0]!) / 1000;
    const deliveriesPerSecond = drained && span > 0 ? (times.length - 1) / span : NaN;

    const lag = await measureLag({ ...options, tag: "LAG" });
    let lagWithHangingNeighbour: Lag | null = null;
    if (options.addHangingNeighbour) {
      await options.addHangingNeighbour();
      lagWithHangingNeighbour = await measureLag({ ...options, tag: "HANG" });
    }
    return { deliveriesPerSecond, workerCpuPerDelivery, delivered: times.length, lag, lagWithHangingNeighbour };
  } finally {
    await worker.stop();
  }
}
