/**
 * bench/deliveries.ts's scenarios (its header says what each measures), on an app, workers and a database someone else
 * started: bench/deliveries.ts (its own) and bench/smoke.ts (the shared server set). `createAppRoles` and
 * `prepareFeedTable` make the database as the scenarios need it (owned by an app role that cannot see other roles'
 * sessions; a table the report role writes to); `runDeliveryScenarios` runs feed, slow and fairness in that order;
 * `deliverySection` is the Markdown section of bench/results.md. Import after DATABASE_URL is set.
 */
import os from "node:os";
import postgres from "postgres";
import { ADMIN_URL } from "./database";
import { measureLag, startEventReceiver, startHangingReceiver, startSlowReceiver, type Lag } from "./events";
import { percentile } from "./load";
import type { Server } from "./servers";

export const ALL_DELIVERY_SCENARIOS = ["feed", "slow", "fairness"] as const;
export type DeliveryScenario = (typeof ALL_DELIVERY_SCENARIOS)[number];

/**
 * The sizes of a run. Quick mode (CI's smoke) checks that every scenario runs without errors, not its figures, and
 * keeps each scenario's shape: the other role's transaction is held 6 s (30 creates, ~60 reads while it is open; the
 * sequencer never waits on a transaction, of any age, so its age changes no code path), 40 events to the slow
 * receiver (five rounds of its 8 in flight), and 5 s of the healthy tenant's creates alone and beside the flood.
 */
export function deliveryConfig(quick: boolean) {
  return {
    feed: {
      holdSeconds: quick ? 6 : 600,
      createsPerSecond: 5,
      pageSize: 100,
      /** A reader with nothing new asks again after this. */
      pollMs: 100,
      /** After the transaction ends and the creates stop: how long the reader may take to catch up. */
      catchUpMs: quick ? 30_000 : 120_000,
    },
    slow: { events: quick ? 40 : 1000, answerAfterMs: 1500, deadlineMs: quick ? 90_000 : 600_000 },
    fairness: {
      rate: 10,
      seconds: quick ? 5 : 30,
      flood: quick ? 300 : 5000,
      hanging: 12,
      fast: 8,
      /** How long, after the healthy tenant's last create, its last events may take to arrive. */
      waitMs: quick ? 30_000 : 120_000,
    },
    batch: 500,
  };
}
export type DeliveryConfig = ReturnType<typeof deliveryConfig>;

/** A run's sizes, its errors (a scenario that errs adds to them) and its log. */
export type DeliveryRun = { cfg: DeliveryConfig; failures: string[]; log: (m: string) => void };

const CREATE_PATH = "/api/v2/couriers/sandbox/shipping-orders";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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

export type Partner = { accountId: string; userId: string; key: string };

// ---------------------------------------------------------------- the platform

export type Platform = {
  app: Server;
  sql: postgres.Sql;
  /** The database URL as another role (the report's). */
  urlAs: (role: string) => string;
  reportRole: string;
  partner: (label: string) => Promise<Partner>;
  endpoint: (partner: Partner, url: string) => Promise<string>;
  deleteEndpoint: (partner: Partner, id: string) => Promise<void>;
};

function createOne(app: Server, key: string, reference: string): Promise<Response> {
  return fetch(app.url + CREATE_PATH, {
    method: "POST",
    headers: { "content-type": "application/svc.shipping-order+json", "x-api-key": key },
    body: JSON.stringify(orderBody(reference)),
  });
}

/** `count` orders of one account in batches of `cfg.batch` (one request each, sequential); the order ids answered. */
async function createBatches(r: DeliveryRun, app: Server, key: string, prefix: string, count: number, what: string) {
  const { cfg, failures } = r;
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

export type FeedFigures = {
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

export async function feedScenario(p: Platform, r: DeliveryRun): Promise<FeedFigures> {
  const { cfg, failures, log } = r;
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

export type SlowFigures = {
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

export async function slowScenario(p: Platform, r: DeliveryRun): Promise<SlowFigures> {
  const { cfg, log } = r;
  const c = cfg.slow;
  const partner = await p.partner("slow");
  const receiver = await startSlowReceiver(c.answerAfterMs);
  try {
    const endpointId = await p.endpoint(partner, receiver.url);
    log(
      `slow: ${c.events} events to a receiver answering after ${c.answerAfterMs} ms (deadline ${c.deadlineMs / 1000} s)`,
    );
    const t0 = Date.now();
    const { ids } = await createBatches(r, p.app, partner.key, `SLOW-${Date.now().toString(36)}`, c.events, "slow");
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

export type FairnessFigures = {
  alone: Lag;
  beside: Lag;
  flood: number;
  floodMs: number[];
  hangingPosts: number;
  hostileFastArrivals: number;
  waitMs: number;
};

export async function fairnessScenario(p: Platform, r: DeliveryRun): Promise<FairnessFigures> {
  const { cfg, failures, log } = r;
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
    const first = await createBatches(r, p.app, hostile.key, `${prefix}-a`, Math.min(cfg.batch, c.flood), "flood");
    const rest = createBatches(r, p.app, hostile.key, `${prefix}-b`, Math.max(0, c.flood - cfg.batch), "flood");
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

export function deliverySection(r: {
  cfg: DeliveryConfig;
  failures: string[];
  /** The command line, and what shared the cores (the app, its workers). */
  command: string;
  processes: string;
  startedAt: Date;
  commit: string;
  loadBefore: string;
  loadAfter: string;
  pg: string;
  feed: FeedFigures | null;
  slow: SlowFigures | null;
  fairness: FairnessFigures | null;
}): string {
  const { cfg, failures } = r;
  const lines: string[] = [];
  const out = (line = "") => lines.push(line);
  const cmd = r.command;
  out(`#### Run of ${r.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC (\`${cmd}\`, commit ${r.commit})`);
  out();
  out(
    `${os.cpus()[0]?.model.trim() ?? "?"}, ${os.cpus().length} cores shared by ${r.processes}, PostgreSQL ${r.pg.split(" ")[0]}, the receivers and the load (this process); Node ${process.version}. Load average ${r.loadBefore} before, ${r.loadAfter} after. The app connects as a role of its own (not a superuser, no \`pg_read_all_stats\`).`,
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

// ---------------------------------------------------------------- the database

export type AppRoles = {
  appRole: string;
  reportRole: string;
  /** The database URL as a role (the app's, the report's). */
  urlAs: (role: string) => string;
  appUrl: string;
  /** Drops both roles (after the database is dropped). */
  drop: () => Promise<void>;
};

/**
 * The app's own role owns the database (PostgreSQL 15: it may then create in schema public, and pg-boss its schema);
 * it is not a superuser and has no pg_read_all_stats, so it cannot see other roles' sessions. The report role is the
 * other role whose long transaction the feed scenario holds.
 */
export async function createAppRoles(database: { name: string; url: string }): Promise<AppRoles> {
  const appRole = `${database.name}_app`;
  const reportRole = `${database.name}_report`;
  const urlAs = (role: string) => {
    const u = new URL(database.url);
    u.username = role;
    u.password = "";
    return u.toString();
  };
  const drop = async () => {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    try {
      for (const role of [appRole, reportRole])
        await admin
          .unsafe(`drop role if exists "${role}"`)
          .catch((e: unknown) => console.error(`could not drop role ${role}:`, e));
    } finally {
      await admin.end({ timeout: 1 }).catch(() => {});
    }
  };
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create role "${appRole}" login`);
    await admin.unsafe(`create role "${reportRole}" login`);
    await admin.unsafe(`alter database "${database.name}" owner to "${appRole}"`);
  } catch (error) {
    await admin.end({ timeout: 1 }).catch(() => {});
    await drop();
    throw error;
  }
  await admin.end({ timeout: 1 }).catch(() => {});
  return { appRole, reportRole, urlAs, appUrl: urlAs(appRole), drop };
}

/**
 * After the migration, as the app role (`sql`): the table the report role's transaction writes to, and the check that
 * the app role cannot read other roles' sessions.
 */
export async function prepareFeedTable(sql: postgres.Sql, roles: AppRoles): Promise<void> {
  await sql`create table bench_report_notes (note text not null)`;
  await sql.unsafe(`grant insert, select on bench_report_notes to "${roles.reportRole}"`);
  const [privileges] = await sql<{ superuser: boolean; stats: boolean }[]>`
    select rolsuper as superuser, pg_has_role(current_user, 'pg_read_all_stats', 'member') as stats
    from pg_roles where rolname = current_user`;
  if (privileges!.superuser || privileges!.stats) throw new Error(`${roles.appRole} can read other roles' sessions`);
}

/** The platform the scenarios run on: partners and endpoints through the services, as bench/run.ts makes them. */
export async function deliveryPlatform(app: Server, sql: postgres.Sql, roles: AppRoles): Promise<Platform> {
  const seed = await import("./seed");
  const { getDb } = await import("@/db/client");
  const { createWebhookEndpoint } = await import("@/server/services/webhooks/create-webhook-endpoint");
  const { deleteWebhookEndpoint } = await import("@/server/services/webhooks/delete-webhook-endpoint");
  const db = await getDb();
  return {
    app,
    sql,
    urlAs: roles.urlAs,
    reportRole: roles.reportRole,
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
}

export type DeliveryFigures = {
  feed: FeedFigures | null;
  slow: SlowFigures | null;
  fairness: FairnessFigures | null;
};

/** The scenarios of `scenarios`, in the order feed, slow, fairness; one that throws is an error of the run. */
export async function runDeliveryScenarios(
  p: Platform,
  r: DeliveryRun,
  scenarios: ReadonlySet<string> = new Set(ALL_DELIVERY_SCENARIOS),
): Promise<DeliveryFigures> {
  const run = async <T>(name: DeliveryScenario, fn: (p: Platform, r: DeliveryRun) => Promise<T>): Promise<T | null> => {
    if (!scenarios.has(name)) return null;
    try {
      return await fn(p, r);
    } catch (e) {
      r.failures.push(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      r.log(`${name} failed: ${String(e)}`);
      return null;
    }
  };
  const feed = await run("feed", feedScenario);
  const slow = await run("slow", slowScenario);
  const fairness = await run("fairness", fairnessScenario);
  return { feed, slow, fairness };
}
