/**
 * `npx tsx bench/deliveries.ts [--quick] [--only=fairness,slow,feed] [--workers=1] [--keep-db]` (after `npm run build`)
 *
 * Issue 27, deliverable 7: what the contract's "Events and webhooks" promises (fair between accounts, full pace for a
 * slow receiver, a feed that neither skips nor freezes) measured from outside, on the production build. Black-box on
 * purpose: the REST API, loopback receivers, and SQL only for setup and for the other role's long transaction, so the
 * same script runs before and after the fixes and the two runs can be compared line by line.
 *
 * The platform: a fresh database owned by an app role of its own (not a superuser, no `pg_read_all_stats`, as a
 * production app runs; the partners and endpoints are made through the services, as bench/run.ts does), `next start`
 * of the build with its worker inside (WORKER=on, the default) plus `--workers` dedicated `npm run worker` processes
 * (default 1), WEBHOOK_ALLOW_PRIVATE_TARGETS=true, everything on 127.0.0.1. The scenarios run in this order, so the
 * hostile tenant's backlog (which outlives its measurement) comes last:
 *
 * - `feed`: another role (made for it, no `pg_read_all_stats`) opens a transaction and writes a row (so it has an
 *   xid) and holds it open 10 minutes (20 s in --quick) while one account creates 5 orders a second and a reader
 *   follows `GET /api/v2/events` by its cursor. Read latency p50/p99, how fresh the feed was (reader's time minus
 *   the event's `created`), and at the end events read against events committed (SQL): none missing, none twice.
 * - `slow`: one endpoint whose receiver answers every POST after 1.5 s; 1,000 events (100 in --quick) sent in
 *   batches: time until the receiver has answered every one, the most POSTs it had in flight, events/s, and POSTs
 *   of an event already POSTed. The endpoint is deleted afterwards (its leftover backlog, if the deadline
 *   cut the drain, would otherwise run into the next scenario).
 * - `fairness`: a healthy account with one fast receiver creates 10 orders a second for 30 s (10 s in --quick):
 *   its delivery lag (receiver arrival minus the event's `created`) alone, then again beside a hostile account with
 *   20 endpoints (12 that never answer, 8 fast) sending a 5,000-event flood (300 in --quick) in batches of 500.
 *
 * A complete full run (no --quick, no --only, no overrides) writes its tables into bench/results.md as section 5f,
 * between markers a later run replaces, before "### 6." (the hand-written text around them is kept). Any other run
 * writes bench/results-partial-deliveries.md (not committed) and leaves bench/results.md alone. Exit 1 when a scenario
 * errs (setup, a create or read answered with an error, the feed returning an event twice or never) — never on speed:
 * slow figures are the point of the "before" run.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { preparedBuild } from "./lib/build";
import { ADMIN_URL, createDatabase, dropDatabase, serverVersion } from "./lib/database";
import {
  measureLag,
  startEventReceiver,
  startHangingReceiver,
  startSlowReceiver,
  startWorkerProcess,
  type Lag,
} from "./lib/events";
import { percentile } from "./lib/load";
import { descendants, startApp, type Server } from "./lib/servers";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];

const QUICK = flag("quick");
const ALL_SCENARIOS = ["feed", "slow", "fairness"] as const;
type Scenario = (typeof ALL_SCENARIOS)[number];
const ONLY = option("only");
const SCENARIOS = new Set((ONLY ?? ALL_SCENARIOS.join(",")).split(",").filter(Boolean));
for (const s of SCENARIOS)
  if (!(ALL_SCENARIOS as readonly string[]).includes(s))
    throw new Error(`--only: unknown scenario ${s} (${ALL_SCENARIOS.join(", ")})`);
const WORKERS = Number(option("workers") ?? 1);
/** Only a run of every scenario at full size, as documented, may replace the committed figures. */
const COMPLETE = !QUICK && ONLY === undefined && option("workers") === undefined && !process.env.BENCH_POOLER_PORT;

const cfg = {
  feed: {
    holdSeconds: QUICK ? 20 : 600,
    createsPerSecond: 5,
    pageSize: 100,
    /** A reader with nothing new asks again after this. */
    pollMs: 100,
    /** After the transaction ends and the creates stop: how long the reader may take to catch up. */
    catchUpMs: QUICK ? 30_000 : 120_000,
  },
  slow: { events: QUICK ? 100 : 1000, answerAfterMs: 1500, deadlineMs: QUICK ? 90_000 : 600_000 },
  fairness: {
    rate: 10,
    seconds: QUICK ? 10 : 30,
    flood: QUICK ? 300 : 5000,
    hanging: 12,
    fast: 8,
    /** How long, after the healthy tenant's last create, its last events may take to arrive. */
    waitMs: QUICK ? 30_000 : 120_000,
  },
  batch: 500,
};

const AUTH_SECRET = "bench-auth-secret-0123456789-bench-auth-secret";
const RESULTS = path.resolve("bench/results.md");
const PARTIAL = path.resolve("bench/results-partial-deliveries.md");
const APP_COPY = path.join(os.tmpdir(), `sop-bench-deliveries-app-${process.pid}`);
const LOG_DIR = os.tmpdir();
const SECTION_HEADING =
  "### 5f. Fair deliveries, slow receivers and the feed under a long transaction (issue 27, 2026-11-27)";
const FIGURES_BEGIN = "<!-- 5f: figures written by bench/deliveries.ts; a later complete run replaces them -->";
const FIGURES_END = "<!-- /5f -->";
const CREATE_PATH = "/api/v2/couriers/sandbox/shipping-orders";

const log = (m: string) => console.error(`[deliveries ${new Date().toISOString().slice(11, 19)}] ${m}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
const n0 = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en") : "–");
const n1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "–");
const ms0 = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString("en")} ms` : "–");
/** A figure in bold, unless there is none. */
const bold = (text: string) => (text === "–" ? text : `**${text}**`);

async function waitFor(check: () => boolean, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
  return true;
}

const orderBody = (reference: string) => ({
  ReferenceNumber: reference,
  Recipient: {
    Name: "Jana Nováková",
    Street: "Dlouhá 12",
    City: "Praha",
    Zip: "110 00",
    Country: "CZ",
    Email: "jana@example.com",
    Phone: "+420777123456",
  },
  Parcels: [{ Weight: 1.5 }],
});

type Partner = { accountId: string; userId: string; key: string };

// ---------------------------------------------------------------- the platform

type Platform = {
  app: Server;
  sql: postgres.Sql;
  /** The database URL as another role (the report's). */
  urlAs: (role: string) => string;
  reportRole: string;
  partner: (label: string) => Promise<Partner>;
  endpoint: (partner: Partner, url: string) => Promise<string>;
  deleteEndpoint: (partner: Partner, id: string) => Promise<void>;
};

const failures: string[] = [];

function createOne(app: Server, key: string, reference: string): Promise<Response> {
  return fetch(app.url + CREATE_PATH, {
    method: "POST",
    headers: { "content-type": "application/svc.shipping-order+json", "x-api-key": key },
    body: JSON.stringify(orderBody(reference)),
  });
}

/** `count` orders of one account in batches of `cfg.batch` (one request each, sequential); the order ids answered. */
async function createBatches(app: Server, key: string, prefix: string, count: number, what: string) {
  const ids: string[] = [];
  const ms: number[] = [];
  for (let from = 0; from < count; from += cfg.batch) {
    const n = Math.min(cfg.batch, count - from);
    const t0 = performance.now();
    const res = await fetch(app.url + CREATE_PATH, {
      method: "POST",
      headers: { "content-type": "application/svc.shipping-orders+json", "x-api-key": key },
      body: JSON.stringify(Array.from({ length: n }, (_, i) => orderBody(`${prefix}-${from + i}`))),
    });
    const text = await res.text();
    ms.push(performance.now() - t0);
    let items: { id: string }[] = [];
    let failed = -1;
    try {
      const parsed = JSON.parse(text) as { items?: { id: string }[]; failed?: unknown[] };
      items = parsed.items ?? [];
      failed = parsed.failed?.length ?? -1;
    } catch {
      // not JSON: counted below
    }
    if (res.status !== 200 || items.length !== n || failed !== 0)
      failures.push(
        `${what}: a batch of ${n} answered HTTP ${res.status}, ${items.length} items: ${text.slice(0, 200)}`,
      );
    ids.push(...items.map((i) => i.id));
  }
  return { ids, ms };
}

// ---------------------------------------------------------------- feed

type FeedFigures = {
  holdSeconds: number;
  xid: string;
  created: number;
  createErrors: number;
  readsOpen: number[];
  readsAfter: number[];
  readErrors: number;
  /** Events read while the transaction was open, and how fresh each was (reader's time − `created`). */
  readWhileOpen: number;
  freshnessOpen: number[];
  committedWhileOpen: number;
  /** From the end of the transaction until the reader had every committed event (NaN: it never had them all). */
  catchUpMs: number;
  committed: number;
  readDistinct: number;
  readTwice: number;
  missing: number;
  notCommitted: number;
};

type FeedPage = { items: { id: string; created: string }[]; next: string | null };

async function feedScenario(p: Platform): Promise<FeedFigures> {
  const c = cfg.feed;
  const partner = await p.partner("feed");
  const report = postgres(p.urlAs(p.reportRole), { max: 1, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let opened!: (xid: string) => void;
  const xidKnown = new Promise<string>((r) => (opened = r));
  // The other role's transaction: it writes a row (so it has an xid, as a migration or a report that writes
  // would) and then sits idle in transaction until released.
  const held = report
    .begin(async (tx) => {
      await tx`insert into bench_report_notes (note) values ('a report of another role')`;
      const [row] = await tx<{ xid: string | null }[]>`select pg_current_xact_id_if_assigned()::text as xid`;
      opened(row!.xid ?? "none");
      await released;
    })
    .catch((e: unknown) => {
      failures.push(`feed: the other role's transaction failed: ${String(e)}`);
      opened("failed");
    });
  const xid = await xidKnown;
  const openedAt = Date.now();
  log(
    `feed: role ${p.reportRole} holds transaction ${xid} open for ${c.holdSeconds} s; creates at ${c.createsPerSecond}/s`,
  );

  // The reader: follows the cursor, asks again after pollMs when nothing new came.
  const seen = new Map<string, number>();
  const firstSeenAt = new Map<string, { at: number; created: string }>();
  const readsOpen: number[] = [];
  const readsAfter: number[] = [];
  let readErrors = 0;
  let closedAt: number | null = null;
  let stopReader = false;
  let cursor: string | undefined;
  const reader = (async () => {
    while (!stopReader) {
      const url = `${p.app.url}/api/v2/events?limit=${c.pageSize}${cursor ? `&after=${cursor}` : ""}`;
      const t0 = performance.now();
      let page: FeedPage | null = null;
      try {
        const res = await fetch(url, { headers: { "x-api-key": partner.key } });
        const text = await res.text();
        if (res.ok) page = JSON.parse(text) as FeedPage;
        else if (++readErrors <= 3) failures.push(`feed: a read answered HTTP ${res.status}: ${text.slice(0, 200)}`);
      } catch (e) {
        if (++readErrors <= 3) failures.push(`feed: a read failed: ${String(e)}`);
      }
      const ms = performance.now() - t0;
      (closedAt === null ? readsOpen : readsAfter).push(ms);
      const now = Date.now();
      for (const e of page?.items ?? []) {
        seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
        if (!firstSeenAt.has(e.id)) firstSeenAt.set(e.id, { at: now, created: e.created });
      }
      if (page?.items.length) cursor = page.items.at(-1)!.id;
      if (!page?.next) await sleep(c.pollMs);
    }
  })();

  // The creates, at a steady rate, for as long as the transaction is held.
  let created = 0;
  let createErrors = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < c.holdSeconds * 1000; i++) {
    const wait = start + (i * 1000) / c.createsPerSecond - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      createOne(p.app, partner.key, `FEED-${i}`)
        .then(async (res) => {
          const body = (await res.json()) as { items?: unknown[] };
          if (res.ok && body.items?.length) created += 1;
          else createErrors += 1;
        })
        .catch(() => {
          createErrors += 1;
        }),
    );
  }
  await Promise.all(pending);
  const readWhileOpen = seen.size;
  const freshnessOpen = [...firstSeenAt.values()].map((s) => s.at - Date.parse(`${s.created}Z`));
  const [beforeClose] = await p.sql<{ n: number }[]>`
    select count(*)::int as n from events where account_id = ${partner.accountId} and type like 'shipping_order.%'`;
  release();
  await held;
  closedAt = Date.now();
  await report.end({ timeout: 1 });
  log(
    `feed: transaction ended after ${((closedAt - openedAt) / 1000).toFixed(0)} s; ${created} created, reader has ${seen.size}`,
  );

  const committedIds = new Set(
    (
      await p.sql<{ id: string }[]>`
        select id::text from events where account_id = ${partner.accountId} and type like 'shipping_order.%'`
    ).map((r) => r.id),
  );
  const caughtUp = await waitFor(() => [...committedIds].every((id) => seen.has(id)), c.catchUpMs);
  const catchUpMs = caughtUp ? Date.now() - closedAt : NaN;
  // A little longer: anything read twice or not committed shows up in the pages that follow.
  await sleep(2000);
  stopReader = true;
  await reader;
  const missing = [...committedIds].filter((id) => !seen.has(id)).length;
  const readTwice = [...seen.values()].filter((n) => n > 1).length;
  const notCommitted = [...seen.keys()].filter((id) => !committedIds.has(id)).length;
  if (readTwice > 0) failures.push(`feed: ${readTwice} events returned twice`);
  if (missing > 0)
    failures.push(
      `feed: ${missing} committed events not returned within ${c.catchUpMs / 1000} s after the transaction ended (skipped, or the feed still frozen)`,
    );
  if (notCommitted > 0) failures.push(`feed: ${notCommitted} events returned that are not committed`);
  if (createErrors > 0) failures.push(`feed: ${createErrors} creates failed`);
  return {
    holdSeconds: (closedAt - openedAt) / 1000,
    xid,
    created,
    createErrors,
    readsOpen: readsOpen.sort((a, b) => a - b),
    readsAfter: readsAfter.sort((a, b) => a - b),
    readErrors,
    readWhileOpen,
    freshnessOpen: freshnessOpen.sort((a, b) => a - b),
    committedWhileOpen: beforeClose!.n,
    catchUpMs,
    committed: committedIds.size,
    readDistinct: seen.size,
    readTwice,
    missing,
    notCommitted,
  };
}

// ---------------------------------------------------------------- slow receiver

type SlowFigures = {
  events: number;
  answered: number;
  drainMs: number;
  deadlineMs: number;
  maxInFlight: number;
  posts: number;
  repeats: number;
  eventsPerSecond: number;
  sendMs: number;
};

async function slowScenario(p: Platform): Promise<SlowFigures> {
  const c = cfg.slow;
  const partner = await p.partner("slow");
  const receiver = await startSlowReceiver(c.answerAfterMs);
  try {
    const endpointId = await p.endpoint(partner, receiver.url);
    log(
      `slow: ${c.events} events to a receiver answering after ${c.answerAfterMs} ms (deadline ${c.deadlineMs / 1000} s)`,
    );
    const t0 = Date.now();
    const { ids } = await createBatches(p.app, partner.key, `SLOW-${Date.now().toString(36)}`, c.events, "slow");
    const sendMs = Date.now() - t0;
    const target = ids.length;
    let lastLog = Date.now();
    await waitFor(
      () => {
        if (Date.now() - lastLog > 30_000) {
          lastLog = Date.now();
          log(`slow: ${receiver.answered()} of ${target} answered, ${receiver.state.inFlight} in flight`);
        }
        return receiver.answered() >= target;
      },
      c.deadlineMs,
      200,
    );
    const answeredTimes = [...receiver.state.arrivals.values()]
      .map((a) => a.answeredAt)
      .filter((a): a is number => a !== null);
    const answered = answeredTimes.length;
    const last = Math.max(...answeredTimes);
    const drainMs = answered >= target && target > 0 ? last - t0 : NaN;
    const figures: SlowFigures = {
      events: target,
      answered,
      drainMs,
      deadlineMs: c.deadlineMs,
      maxInFlight: receiver.state.maxInFlight,
      posts: receiver.state.posts,
      repeats: receiver.state.repeats,
      eventsPerSecond: answered > 0 ? answered / ((Number.isFinite(drainMs) ? drainMs : Date.now() - t0) / 1000) : 0,
      sendMs,
    };
    log(
      `slow: ${answered} of ${target} answered${Number.isFinite(drainMs) ? ` in ${(drainMs / 1000).toFixed(1)} s` : " by the deadline"}, max in flight ${figures.maxInFlight}, ${figures.repeats} repeated POSTs`,
    );
    // Its backlog (when the deadline cut the drain) must not run into the next scenario.
    await p.deleteEndpoint(partner, endpointId);
    return figures;
  } finally {
    await receiver.close();
  }
}

// ---------------------------------------------------------------- fairness

type FairnessFigures = {
  alone: Lag;
  beside: Lag;
  flood: number;
  floodMs: number[];
  hangingPosts: number;
  hostileFastArrivals: number;
  waitMs: number;
};

async function fairnessScenario(p: Platform): Promise<FairnessFigures> {
  const c = cfg.fairness;
  const healthy = await p.partner("healthy");
  const hostile = await p.partner("hostile");
  const receiver = await startEventReceiver();
  const hanging = await Promise.all(Array.from({ length: c.hanging }, () => startHangingReceiver()));
  const fast = await Promise.all(Array.from({ length: c.fast }, () => startEventReceiver()));
  try {
    await p.endpoint(healthy, receiver.url);
    for (const r of [...hanging, ...fast]) await p.endpoint(hostile, r.url);
    const create = (reference: string) => createOne(p.app, healthy.key, reference);
    log(`fairness: the healthy tenant alone, ${c.rate} creates/s for ${c.seconds} s`);
    const alone = await measureLag({
      receiver,
      create,
      tag: "ALONE",
      rate: c.rate,
      seconds: c.seconds,
      waitMs: c.waitMs,
    });
    log(`fairness: alone p50 ${alone.p50} ms, p99 ${alone.p99} ms, ${alone.events} arrived, ${alone.lost} not`);

    log(
      `fairness: the hostile tenant floods ${c.flood} events to ${c.hanging} hanging + ${c.fast} fast endpoints; the healthy tenant again`,
    );
    const prefix = `FLOOD-${Date.now().toString(36)}`;
    // The first batch is committed (its deliveries queued) before the healthy tenant starts, so they sit ahead of it.
    const first = await createBatches(p.app, hostile.key, `${prefix}-a`, Math.min(cfg.batch, c.flood), "flood");
    const rest = createBatches(p.app, hostile.key, `${prefix}-b`, Math.max(0, c.flood - cfg.batch), "flood");
    const beside = await measureLag({
      receiver,
      create,
      tag: "BESIDE",
      rate: c.rate,
      seconds: c.seconds,
      waitMs: c.waitMs,
    });
    const more = await rest;
    log(`fairness: beside p50 ${beside.p50} ms, p99 ${beside.p99} ms, ${beside.events} arrived, ${beside.lost} not`);
    for (const [name, lag] of [
      ["alone", alone],
      ["beside the hostile tenant", beside],
    ] as const)
      if (lag.createErrors > 0) failures.push(`fairness ${name}: ${lag.createErrors} creates failed`);
    return {
      alone,
      beside,
      flood: first.ids.length + more.ids.length,
      floodMs: [...first.ms, ...more.ms],
      hangingPosts: hanging.reduce((s, h) => s + h.requests(), 0),
      hostileFastArrivals: fast.reduce((s, f) => s + f.arrivals.size, 0),
      waitMs: c.waitMs,
    };
  } finally {
    await Promise.all([receiver, ...hanging, ...fast].map((r) => r.close().catch(() => {})));
  }
}

// ---------------------------------------------------------------- report

function section(r: {
  startedAt: Date;
  build: string;
  commit: string;
  loadBefore: string;
  loadAfter: string;
  pg: string;
  feed: FeedFigures | null;
  slow: SlowFigures | null;
  fairness: FairnessFigures | null;
}): string {
  const lines: string[] = [];
  const out = (line = "") => lines.push(line);
  const cmd = `npx tsx bench/deliveries.ts${argv.length ? ` ${argv.join(" ")}` : ""}`;
  out(`#### Run of ${r.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC (\`${cmd}\`, commit ${r.commit})`);
  out();
  out(
    `${os.cpus()[0]?.model.trim() ?? "?"}, ${os.cpus().length} cores shared by the app (\`next start\` of build ${r.build}, its worker inside), ${WORKERS} \`npm run worker\` process${WORKERS === 1 ? "" : "es"}, PostgreSQL ${r.pg.split(" ")[0]}, the receivers and the load (this process); Node ${process.version}. Load average ${r.loadBefore} before, ${r.loadAfter} after. The app connects as a role of its own (not a superuser, no \`pg_read_all_stats\`).`,
  );
  const f = r.fairness;
  if (f) {
    out();
    out(
      `**Fairness.** A healthy account, one loopback receiver answering at once, ${cfg.fairness.rate} creates/s for ${cfg.fairness.seconds} s; lag = arrival at its receiver − the event's \`created\`, over the events that arrived within ${f.waitMs / 1000} s of the last create. Then the same beside a hostile account with ${cfg.fairness.hanging} endpoints that never answer and ${cfg.fairness.fast} fast ones, flooding ${n0(f.flood)} events in batches of up to ${cfg.batch} (${f.floodMs.map((m) => n0(m)).join(", ")} ms each); the healthy tenant starts once the first batch is committed.`,
    );
    out();
    out("| healthy tenant | events sent | arrived | not arrived | lag p50 | lag p99 | lag max |");
    out("| --- | --- | --- | --- | --- | --- | --- |");
    for (const [name, l] of [
      ["alone", f.alone],
      ["beside the hostile flood", f.beside],
    ] as const)
      out(
        `| ${name} | ${n0(l.events + l.lost)} | ${n0(l.events)} | ${l.lost > 0 ? `**${n0(l.lost)}**` : "0"} | ${ms0(l.p50)} | ${bold(ms0(l.p99))} | ${ms0(l.max)} |`,
      );
    out();
    out(
      `Meanwhile the hostile account's hanging receivers got ${n0(f.hangingPosts)} POSTs and its fast ones ${n0(f.hostileFastArrivals)} events (of ${n0(f.flood * cfg.fairness.fast)}). Contract: the healthy tenant's deliveries delayed by no more than 2 s.`,
    );
  }
  const s = r.slow;
  if (s) {
    out();
    out(
      `**A slow receiver.** One endpoint whose receiver answers every POST with 200 after ${cfg.slow.answerAfterMs} ms; ${n0(s.events)} events created in batches of up to ${cfg.batch} (${n0(s.sendMs)} ms to send them). Drain time: from the first create to the receiver's answer to the last event. Contract: up to 8 in flight, never pushed back (8 in flight at 1.5 s each ≈ 5.3 events/s).`,
    );
    out();
    out(
      "| events | answered | time to drain | events/s | max in flight at the receiver | POSTs | POSTs of an event already POSTed |",
    );
    out("| --- | --- | --- | --- | --- | --- | --- |");
    out(
      `| ${n0(s.events)} | ${n0(s.answered)} | ${Number.isFinite(s.drainMs) ? `**${n1(s.drainMs / 1000)} s**` : `**not drained in ${n0(s.deadlineMs / 1000)} s**`} | ${n1(s.eventsPerSecond)} | ${s.maxInFlight} | ${n0(s.posts)} | ${s.repeats} |`,
    );
  }
  const d = r.feed;
  if (d) {
    const pct = (xs: number[], q: number) => ms0(percentile(xs, q));
    out();
    out(
      `**The feed under another role's long transaction.** A role made for the run (no \`pg_read_all_stats\`) wrote a row and held its transaction (xid ${d.xid}) open ${n0(d.holdSeconds)} s while one account created ${cfg.feed.createsPerSecond} orders/s and a reader followed \`GET /api/v2/events?limit=${cfg.feed.pageSize}\` by its cursor (asking again ${cfg.feed.pollMs} ms after a page with no \`next\`). Freshness: the reader's time − the event's \`created\`. Contract: a read answers within 2 s; every committed event exactly once.`,
    );
    out();
    out("| reads | count | p50 | p99 | max | errors |");
    out("| --- | --- | --- | --- | --- | --- |");
    out(
      `| while the transaction was open | ${n0(d.readsOpen.length)} | ${pct(d.readsOpen, 50)} | ${bold(pct(d.readsOpen, 99))} | ${ms0(d.readsOpen.at(-1) ?? NaN)} | ${d.readErrors} |`,
    );
    out(
      `| after it ended (catching up) | ${n0(d.readsAfter.length)} | ${pct(d.readsAfter, 50)} | ${pct(d.readsAfter, 99)} | ${ms0(d.readsAfter.at(-1) ?? NaN)} | |`,
    );
    out();
    out(
      "| events committed while open | read while open | freshness p50 / p99 / max while open | caught up after the end | committed in all | read (distinct) | read twice | never read |",
    );
    out("| --- | --- | --- | --- | --- | --- | --- | --- |");
    out(
      `| ${n0(d.committedWhileOpen)} | **${n0(d.readWhileOpen)}** | ${pct(d.freshnessOpen, 50)} / ${pct(d.freshnessOpen, 99)} / ${ms0(d.freshnessOpen.at(-1) ?? NaN)} | ${Number.isFinite(d.catchUpMs) ? ms0(d.catchUpMs) : `**not in ${cfg.feed.catchUpMs / 1000} s**`} | ${n0(d.committed)} | ${n0(d.readDistinct)} | ${d.readTwice} | ${d.missing} |`,
    );
  }
  if (failures.length) {
    out();
    out(`**Errors:** ${failures.join("; ")}`);
  }
  return lines.join("\n");
}

/** The figures between the 5f markers; a first run adds the section (heading and markers) before "### 6.". */
function writeResults(text_: string): void {
  const text = readFileSync(RESULTS, "utf8");
  const block = `${FIGURES_BEGIN}\n\n${text_}\n\n${FIGURES_END}`;
  const begin = text.indexOf(FIGURES_BEGIN);
  const end = text.indexOf(FIGURES_END);
  if (begin >= 0 && end > begin) {
    writeFileSync(RESULTS, text.slice(0, begin) + block + text.slice(end + FIGURES_END.length));
    return;
  }
  const at = text.indexOf("\n### 6. ");
  if (at < 0) throw new Error(`${RESULTS} has no "### 6." section to put 5f before`);
  writeFileSync(RESULTS, `${text.slice(0, at + 1)}${SECTION_HEADING}\n\n${block}\n\n${text.slice(at + 1)}`);
}

// ---------------------------------------------------------------- main

/** Stops a process and every descendant it left (a `next start` CLI's server child), by pid. */
async function stopTree(pid: number | undefined, stop: () => Promise<void>): Promise<void> {
  const tree = pid ? descendants(pid) : [];
  await stop().catch(() => {});
  for (const p of tree) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

async function main(): Promise<number> {
  const build = await preparedBuild({ dir: APP_COPY, build: false, log });
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      return "?";
    }
  })();
  const database = await createDatabase();
  // The app's own role owns the database (PostgreSQL 15: it may then create in schema public, and pg-boss its
  // schema); it is not a superuser and has no pg_read_all_stats, so it cannot see other roles' sessions.
  const appRole = `${database.name}_app`;
  const reportRole = `${database.name}_report`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const urlAs = (role: string) => {
    const u = new URL(database.url);
    u.username = role;
    u.password = "";
    return u.toString();
  };
  let app: Server | undefined;
  const workers: ReturnType<typeof startWorkerProcess>[] = [];
  let sql: postgres.Sql | undefined;
  let cleaned = false;
  cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(workers.map((w) => stopTree(w.child.pid, w.stop)));
    await stopTree(app?.child.pid, async () => app?.stop());
    await sql?.end({ timeout: 1 }).catch(() => {});
    const { closeDb } = await import("@/db/client");
    await closeDb().catch(() => {});
    rmSync(APP_COPY, { recursive: true, force: true });
    if (flag("keep-db")) log(`kept database ${database.name} (roles ${appRole}, ${reportRole})`);
    else {
      await dropDatabase(database.name).catch((e: unknown) => console.error(`could not drop ${database.name}:`, e));
      for (const role of [appRole, reportRole])
        await admin
          .unsafe(`drop role if exists "${role}"`)
          .catch((e: unknown) => console.error(`could not drop role ${role}:`, e));
    }
    await admin.end({ timeout: 1 }).catch(() => {});
  };
  try {
    await admin.unsafe(`create role "${appRole}" login`);
    await admin.unsafe(`create role "${reportRole}" login`);
    await admin.unsafe(`alter database "${database.name}" owner to "${appRole}"`);
    const appUrl = urlAs(appRole);
    log(
      `database ${database.name} (owner ${appRole}); build ${build.id}; mode ${QUICK ? "quick" : "full"}; ${[...SCENARIOS].join(", ")}`,
    );
    // db/client and server/env read the environment once, on first use: set it before importing them.
    process.env.DATABASE_URL = appUrl;
    process.env.AUTH_SECRET = AUTH_SECRET;
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    const { migrate } = await import("@/server/migrate");
    await migrate();
    sql = postgres(appUrl, { max: 2, onnotice: () => {} });
    await sql`create table bench_report_notes (note text not null)`;
    await sql.unsafe(`grant insert, select on bench_report_notes to "${reportRole}"`);
    const [privileges] = await sql<{ superuser: boolean; stats: boolean }[]>`
      select rolsuper as superuser, pg_has_role(current_user, 'pg_read_all_stats', 'member') as stats
      from pg_roles where rolname = current_user`;
    if (privileges!.superuser || privileges!.stats) throw new Error(`${appRole} can read other roles' sessions`);

    const seed = await import("./lib/seed");
    const { getDb } = await import("@/db/client");
    const { createWebhookEndpoint } = await import("@/server/services/webhooks/create-webhook-endpoint");
    const { deleteWebhookEndpoint } = await import("@/server/services/webhooks/delete-webhook-endpoint");
    const db = await getDb();

    app = await startApp(
      { databaseUrl: appUrl, authSecret: AUTH_SECRET, extraEnv: { WORKER: "on" } },
      LOG_DIR,
      build.dir,
      "app-deliveries",
    );
    for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess(appUrl));
    log(
      `app on ${app.url} (pid ${app.child.pid}, log ${path.join(LOG_DIR, "app-deliveries.log")}); ${WORKERS} worker process(es)`,
    );

    const platform: Platform = {
      app,
      sql,
      urlAs,
      reportRole,
      partner: async (label) => {
        const p = await seed.createBenchPartner(label);
        return { accountId: p.accountId, userId: p.userId, key: p.key };
      },
      endpoint: async (partner, url) =>
        (
          await createWebhookEndpoint(
            db,
            { userId: partner.userId, isStaff: false },
            { accountId: partner.accountId, url },
          )
        ).id,
      deleteEndpoint: (partner, id) => deleteWebhookEndpoint(db, { userId: partner.userId, isStaff: false }, id),
    };

    const run = async <T>(name: Scenario, fn: (p: Platform) => Promise<T>): Promise<T | null> => {
      if (!SCENARIOS.has(name)) return null;
      try {
        return await fn(platform);
      } catch (e) {
        failures.push(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        log(`${name} failed: ${String(e)}`);
        return null;
      }
    };
    const feed = await run("feed", feedScenario);
    const slow = await run("slow", slowScenario);
    const fairness = await run("fairness", fairnessScenario);

    const text = section({
      startedAt,
      build: build.id,
      commit,
      loadBefore,
      loadAfter: loadAverage(),
      pg: await serverVersion(sql),
      feed,
      slow,
      fairness,
    });
    console.log(`\n${text}\n`);
    // Errors of the product (an event read twice) belong in the figures; a scenario that could not run leaves them incomplete.
    if (COMPLETE && feed && slow && fairness) {
      writeResults(text);
      log(`wrote section 5f of ${path.relative(".", RESULTS)}`);
    } else {
      writeFileSync(
        PARTIAL,
        `# Partial run of bench/deliveries.ts (not committed; bench/results.md keeps the last complete run)\n\n${text}\n`,
      );
      log(
        `${COMPLETE ? "errors" : "partial run"}: report in ${path.relative(".", PARTIAL)} (bench/results.md left alone)`,
      );
    }
    if (failures.length) {
      log(`FAILURES:\n  ${failures.join("\n  ")}`);
      return 1;
    }
    return 0;
  } finally {
    await cleanup();
  }
}

/** Stops what main() started, drops its database and roles; set by main(), safe to call twice. */
let cleanup: () => Promise<void> = async () => {};

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping the processes, dropping the database and roles (send again to quit at once)`);
    void cleanup().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    if (existsSync(APP_COPY)) rmSync(APP_COPY, { recursive: true, force: true });
    process.exit(1);
  },
);
