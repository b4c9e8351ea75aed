/**
 * The checker: one small function per invariant, each over the recorded history (the workload's requests, the
 * readers' and receivers' ledgers, the nemesis's faults) and the database at the end. Each returns the
 * violations it found with concrete ids, so a failure names what broke, not only that something did.
 */
import type postgres from "postgres";
import { RETRY_SCHEDULE, WEBHOOK_TIMEOUT_MS } from "./cluster";
import type { Fault } from "./nemesis";
import type { Reader } from "./readers";
import { HEALTHY_KINDS, type Post } from "./receivers";
import { describeDisagreement, STATISTICS_DISAGREEMENTS, type StatisticsDisagreement } from "./statistics-check";
import type { Tenant } from "./tenants";
import type { RequestRecord } from "./workload";

export type Verdict = { name: string; holds: boolean; summary: string; examples: string[] };

export type StoredEvent = {
  id: string;
  account_id: string;
  type: string;
  order_id: string | null;
  tx_id: string;
  created_ms: number;
  data: { reason?: string; replaced?: string | null };
};

export type History = {
  sql: postgres.Sql;
  tenants: Tenant[];
  requests: RequestRecord[];
  readers: Reader[];
  faults: Fault[];
  /** The committed order events the readers and receivers are held to (a snapshot taken in the quiet phase). */
  events: StoredEvent[];
  /** Healthy tenant's delivery lags (ms), alone and beside the hostile tenant. */
  lagAlone: number[];
  lagBeside: number[];
  /** Processes that exited on their own during the run. */
  unexpectedExits: { name: string; at: number; code: number | null; signal: string | null }[];
  /** The 1.5 s receiver's drain: events, seconds it took (Infinity: not drained by the deadline), max in flight. */
  pace: { events: number; seconds: number; maxInFlight: number } | null;
  /**
   * Attempts whose outcome the database would not take within their lease, from the processes' logs
   * (deliver-webhook.ts, UNRECORDED_OUTCOME): the receiver's `webhook-id` and when the process gave up.
   */
  unrecorded: { webhookId: string; at: number }[];
};

const verdict = (name: string, summary: string, examples: string[]): Verdict => ({
  name,
  holds: examples.length === 0,
  summary,
  examples,
});

const healthy = (h: History) => h.tenants.filter((t) => !t.hostile);

/**
 * The SIGKILL faults (a crash) whose moment fell while an attempt POSTed at `at` could still be unfinished: its POST in
 * flight, or its outcome not yet committed, which the attempt keeps retrying until its lease ends (a terminated
 * backend fails the write meanwhile). A crash then leaves the attempt to the sweep, which counts it failed and
 * schedules the next: at least once. (A SIGKILL seconds after the answer, while terminate-backends keeps failing
 * the outcome's transaction, is such a case.)
 */
const ATTEMPT_LEASE_MS = WEBHOOK_TIMEOUT_MS + 15_000; // deliver-webhook.ts attemptLeaseMs (not imported: db/client)
/** Faults that SIGKILL a process: kill-web, kill-worker, and courier-kill (the web process a courier create is on,
 * which may be running webhook attempts too: one answered just before such a kill may be POSTed again). */
const isCrash = (f: Fault) => f.fault.startsWith("kill-") || f.fault === "courier-kill";
const crashDuring = (faults: Fault[], at: number) =>
  faults.find((f) => isCrash(f) && f.start >= at - 500 && f.start <= at + ATTEMPT_LEASE_MS);

/** (1) Every committed shipping_order.* event of an account read exactly once by every reader of that account. */
export function feedExactlyOnce(h: History): Verdict {
  const examples: string[] = [];
  let missing = 0;
  let duplicates = 0;
  for (const reader of h.readers) {
    const counts = new Map<string, number>();
    for (const id of reader.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const e of h.events.filter((e) => e.account_id === reader.accountId)) {
      const n = counts.get(e.id) ?? 0;
      if (n === 1) continue;
      if (n === 0) missing += 1;
      else duplicates += 1;
      if (examples.length < 15)
        examples.push(
          `${reader.name}: event ${e.id} (${e.type}, order ${e.order_id}, tx ${e.tx_id}, created ${new Date(e.created_ms).toISOString()}) read ${n} times${nearby(h.faults, e.created_ms)}`,
        );
    }
  }
  return verdict(
    "feed: every committed event read exactly once by every reader",
    `${missing} never read, ${duplicates} read more than once`,
    examples,
  );
}

/**
 * (1b) The feed never freezes: no read sent `boundMs` or more after an event's commit was answered says it has
 * nothing more (`next: null`) while that event was still unread. (A reader merely behind a large backlog is not a
 * frozen feed: only a read claiming to be caught up counts.)
 */
export function feedFresh(h: History, boundMs = 15_000): Verdict {
  const answered = new Map<string, number>();
  for (const r of h.requests) {
    if (r.answered === null) continue;
    for (const id of Object.values(r.orders)) answered.set(`created:${id}`, r.answered);
    if (r.kind === "delete" && r.orderId) answered.set(`deleted:${r.orderId}`, r.answered);
  }
  const examples: string[] = [];
  let frozen = 0;
  let worst = 0;
  for (const reader of h.readers) {
    const caughtUp = [...reader.caughtUpReads].sort((a, b) => a - b);
    for (const e of h.events.filter((e) => e.account_id === reader.accountId)) {
      const seen = reader.firstSeen.get(e.id);
      if (seen === undefined) continue; // never read: (1) reports it
      const key = e.type === "shipping_order.created" ? `created:${e.order_id}` : `deleted:${e.order_id}`;
      // Committed by the time its request was answered. An event whose request got no answer (its process was
      // killed, its connection cut) has no known commit time: its transaction's start (`created`) may be many
      // seconds earlier (a batch waiting on a held lock), so it is left to the exactly-once check above.
      const answeredAt = answered.get(key);
      if (answeredAt === undefined) continue;
      const committed = Math.max(e.created_ms, answeredAt);
      // The last read that claimed to be caught up before the event was first read.
      let lastClaim = -Infinity;
      for (const t of caughtUp) {
        if (t >= seen) break;
        lastClaim = t;
      }
      const stale = lastClaim - committed;
      if (stale < boundMs) continue;
      frozen += 1;
      worst = Math.max(worst, stale);
      if (examples.length < 10)
        examples.push(
          `${reader.name}: a read sent ${(stale / 1000).toFixed(1)} s after event ${e.id} (${e.type}) committed answered next: null without it${nearby(h.faults, committed)}`,
        );
    }
  }
  return verdict(
    `feed: never frozen (no read ${boundMs / 1000} s after a commit claims to be caught up without it)`,
    `${frozen} (reader, event) pairs behind a frozen feed, worst ${(worst / 1000).toFixed(1)} s`,
    examples,
  );
}

type DeliveryRow = { endpoint_id: string; event_id: string; attempts: number; status: string };

async function deliveries(h: History): Promise<DeliveryRow[]> {
  return h.sql<DeliveryRow[]>`select endpoint_id::text, event_id::text, attempts, status::text from webhook_deliveries`;
}

/** (2a) Every event delivered at least once to every subscribed endpoint that stayed healthy. */
export function deliveredAtLeastOnce(h: History): Verdict {
  const examples: string[] = [];
  let lost = 0;
  let total = 0;
  for (const t of healthy(h))
    for (const r of t.receivers.filter((r) => HEALTHY_KINDS.includes(r.kind))) {
      const got = new Set(r.posts.map((p) => p.webhookId));
      const subscribed = (type: string) => r.eventTypes === null || r.eventTypes.includes(type);
      for (const e of h.events.filter((e) => e.account_id === t.accountId && subscribed(e.type))) {
        total += 1;
        if (got.has(e.id)) continue;
        lost += 1;
        if (examples.length < 15)
          examples.push(`${r.label} (endpoint ${r.endpointId}): event ${e.id} (${e.type}) never POSTed`);
      }
    }
  return verdict(
    "webhooks: every event delivered to every healthy endpoint",
    `${lost} of ${total} (endpoint, event) pairs never delivered`,
    examples,
  );
}

/**
 * (2b, 2c) Each scheduled attempt POSTed at most once: per (endpoint, webhook-id) no more POSTs than the attempts
 * the delivery recorded, and consecutive POSTs spaced at least by the schedule (no early retry). A crash (SIGKILL)
 * while an attempt was in flight may redo that attempt: such a repeat is excused and counted, nothing else is.
 */
export async function postedOncePerAttempt(h: History): Promise<Verdict> {
  // The processes keep delivering while the run is checked: a POST the receivers saw after this read began may
  // belong to a claim the read did not see (counted against attempts read just before they were claimed, it would
  // look like one POST too many). A POST before it began was claimed, committed, before it: the read sees that claim.
  const readAt = Date.now();
  const rows = await deliveries(h);
  const attempts = new Map(rows.map((r) => [`${r.endpoint_id}/${r.event_id}`, r.attempts]));
  const examples: string[] = [];
  let excess = 0;
  let early = 0;
  let excused = 0;
  for (const t of h.tenants)
    for (const r of t.receivers) {
      if (r.kind === "blackhole") {
        const recorded = rows.filter((d) => d.endpoint_id === r.endpointId).reduce((n, d) => n + d.attempts, 0);
        if (r.connections > recorded + h.faults.filter((f) => f.fault.startsWith("kill-")).length * 8) {
          excess += 1;
          examples.push(`${r.label}: ${r.connections} connections for ${recorded} recorded attempts`);
        }
        continue;
      }
      const byId = new Map<string, number[]>();
      for (const p of r.posts) if (p.at < readAt) byId.set(p.webhookId, [...(byId.get(p.webhookId) ?? []), p.at]);
      for (const [id, times] of byId) {
        times.sort((a, b) => a - b);
        const recorded = attempts.get(`${r.endpointId}/${id}`) ?? 0;
        let crashes = 0;
        for (let i = 1; i < times.length; i++) {
          if (crashDuring(h.faults, times[i - 1]!)) {
            crashes += 1;
            continue;
          }
          const gap = times[i]! - times[i - 1]!;
          // The retry this POST is (a crash's redo of an attempt does not move the schedule on).
          const retry = i - 1 - crashes;
          const due = (RETRY_SCHEDULE[Math.min(retry, RETRY_SCHEDULE.length - 1)] ?? 0) * 1000;
          if (gap >= due - 250) continue;
          early += 1;
          if (examples.length < 15)
            examples.push(
              `${r.label}: webhook-id ${id} POSTed again ${(gap / 1000).toFixed(2)} s after the previous POST (schedule: ${due / 1000} s) at ${new Date(times[i]!).toISOString()}${nearby(h.faults, times[i - 1]!)}`,
            );
        }
        excused += Math.max(0, Math.min(crashes, times.length - recorded));
        if (times.length > recorded + crashes) {
          excess += 1;
          if (examples.length < 15)
            examples.push(
              `${r.label}: webhook-id ${id} POSTed ${times.length} times, ${recorded} attempts recorded (POSTs at ${times.map((t) => new Date(t).toISOString().slice(11, 23)).join(", ")})${nearby(h.faults, times[0]!)}`,
            );
        }
      }
    }
  return verdict(
    "webhooks: each scheduled attempt POSTed at most once, never before its time",
    `${excess} webhook-ids POSTed more often than recorded, ${early} early retries; ${excused} repeats excused by a SIGKILL during the attempt`,
    examples,
  );
}

/**
 * (2d) A POST a healthy receiver answered 2xx well within the timeout is the delivery's last: the same webhook-id
 * never comes again (a SIGTERM must let the attempt finish and record it; only a crash, SIGKILL, may redo it).
 * Also excused, and counted: an attempt whose outcome the database would not take for its whole lease (its process
 * logged giving up no earlier than the lease's end, less a second's slack): delivery is at least once, and the
 * contract's "each scheduled attempt POSTed once" is checked apart (2b). A process that gave up earlier than its
 * lease is not excused: overlapping terminate-backends faults can fail a worker's writes for longer than a lease,
 * but a process that stops retrying early (an error not classified as the database's) is a bug.
 */
export function answeredMeansDone(h: History): Verdict {
  const examples: string[] = [];
  let repeats = 0;
  let unrecorded = 0;
  const gaveUp = new Map<string, number[]>();
  for (const u of h.unrecorded) gaveUp.set(u.webhookId, [...(gaveUp.get(u.webhookId) ?? []), u.at]);
  const leaseRanOut = (id: string, postedAt: number) =>
    (gaveUp.get(id) ?? []).some(
      (at) => at >= postedAt + ATTEMPT_LEASE_MS - 2000 && at <= postedAt + ATTEMPT_LEASE_MS + 30_000,
    );
  for (const t of h.tenants)
    for (const r of t.receivers.filter((r) => HEALTHY_KINDS.includes(r.kind))) {
      const byId = new Map<string, Post[]>();
      for (const p of r.posts) byId.set(p.webhookId, [...(byId.get(p.webhookId) ?? []), p]);
      for (const [id, posts] of byId) {
        posts.sort((a, b) => a.at - b.at);
        for (let i = 1; i < posts.length; i++) {
          const previous = posts[i - 1]!;
          const inTime = previous.answeredIn !== null && previous.answeredIn <= WEBHOOK_TIMEOUT_MS - 1000;
          if (!inTime || crashDuring(h.faults, previous.at)) continue;
          if (leaseRanOut(id, previous.at)) {
            unrecorded += 1;
            continue;
          }
          repeats += 1;
          if (examples.length < 15)
            examples.push(
              `${r.label}: webhook-id ${id} answered 200 in ${previous.answeredIn} ms at ${new Date(previous.at).toISOString().slice(11, 23)}, POSTed again at ${new Date(posts[i]!.at).toISOString().slice(11, 23)}${nearby(h.faults, previous.at)}`,
            );
        }
      }
    }
  return verdict(
    "webhooks: a POST answered 2xx in time is never POSTed again (only a crash may redo it)",
    `${repeats} repeats; ${unrecorded} excused: the database refused the outcome for the attempt's whole lease`,
    examples,
  );
}

/** The faults running around a moment, to lay beside a violation. */
function nearby(faults: Fault[], at: number): string {
  const around = faults.filter((f) => f.start <= at + 2000 && (f.end ?? Infinity) >= at - 10_000);
  return around.length ? ` [faults around: ${around.map((f) => `${f.fault} ${f.target}`).join(", ")}]` : "";
}

/** Every POST carries a valid Standard Webhooks signature. */
export function signaturesValid(h: History): Verdict {
  const bad = h.tenants.flatMap((t) => t.receivers.flatMap((r) => r.posts.filter((p) => !p.signatureOk)));
  return verdict(
    "webhooks: every POST signed",
    `${bad.length} POSTs failed verification`,
    bad.slice(0, 5).map((p) => `${p.endpoint}: webhook-id ${p.webhookId}`),
  );
}

type OrderRow = { id: string; account_id: string; reference_number: string; deleted: boolean; live_key: string };

/**
 * (3) All-or-nothing: each create request's orders exist with their `created` events and deliveries, or none of
 * it does; no event without its order change, no order without its event, one live order per reference.
 */
export async function allOrNothing(h: History): Promise<Verdict> {
  const ids = h.tenants.map((t) => t.accountId);
  const orders = await h.sql<OrderRow[]>`
    select id::text, account_id::text, reference_number, deleted_at is not null as deleted,
           reference_number || '/' || reference_source || '/' || source_identifier as live_key
    from shipping_orders where account_id = any(${ids}::uuid[])`;
  const events = await h.sql<StoredEvent[]>`
    select id::text, account_id::text, type, order_id::text, tx_id::text, data,
           (extract(epoch from created_at) * 1000)::float8 as created_ms
    from events where account_id = any(${ids}::uuid[]) and type like 'shipping_order.%'`;
  const deliveryCounts = await h.sql<{ event_id: string; n: number }[]>`
    select d.event_id::text, count(*)::int as n from webhook_deliveries d group by d.event_id`;
  // The 410 receiver's endpoint is disabled at its first answer: events after that rightly get no delivery to it.
  const endpointsPerAccount = new Map(
    h.tenants.map((t) => [t.accountId, t.receivers.filter((r) => r.kind !== "gone410")]),
  );
  const gone = new Set(
    h.tenants.flatMap((t) => t.receivers.filter((r) => r.kind === "gone410").map((r) => r.endpointId)),
  );
  const goneDeliveries = await h.sql<{ event_id: string; n: number }[]>`
    select event_id::text, count(*)::int as n from webhook_deliveries where endpoint_id = any(${[...gone]}::uuid[]) group by event_id`;
  const goneCount = new Map(goneDeliveries.map((r) => [r.event_id, r.n]));
  const delivered = new Map(deliveryCounts.map((r) => [r.event_id, r.n - (goneCount.get(r.event_id) ?? 0)]));
  const byOrder = new Map<string, StoredEvent[]>();
  for (const e of events) if (e.order_id) byOrder.set(e.order_id, [...(byOrder.get(e.order_id) ?? []), e]);
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const byReference = new Map<string, OrderRow[]>();
  for (const o of orders)
    byReference.set(`${o.account_id}/${o.reference_number}`, [
      ...(byReference.get(`${o.account_id}/${o.reference_number}`) ?? []),
      o,
    ]);
  const examples: string[] = [];
  const add = (text: string) => examples.length < 20 && examples.push(text);

  for (const o of orders) {
    const own = byOrder.get(o.id) ?? [];
    const created = own.filter((e) => e.type === "shipping_order.created");
    const cancelled = own.filter((e) => e.type === "shipping_order.cancelled");
    if (created.length !== 1) add(`order ${o.id} (${o.reference_number}) has ${created.length} created events`);
    if (o.deleted && cancelled.length !== 1)
      add(`order ${o.id} (${o.reference_number}) deleted with ${cancelled.length} cancelled events`);
    if (!o.deleted && cancelled.length) add(`order ${o.id} (${o.reference_number}) live with a cancelled event`);
  }
  for (const e of events) {
    if (e.order_id && !orderById.has(e.order_id))
      add(`event ${e.id} (${e.type}) about order ${e.order_id}, which does not exist`);
    const want = (endpointsPerAccount.get(e.account_id) ?? []).filter(
      (r) => !r.eventTypes || r.eventTypes.includes(e.type),
    ).length;
    const got = delivered.get(e.id) ?? 0;
    if (got !== want) add(`event ${e.id} (${e.type}, order ${e.order_id}) has ${got} deliveries for ${want} endpoints`);
  }
  const live = new Map<string, number>();
  for (const o of orders) if (!o.deleted) live.set(o.live_key, (live.get(o.live_key) ?? 0) + 1);
  for (const [key, n] of live) if (n > 1) add(`reference ${key} has ${n} live orders`);

  for (const r of h.requests) {
    if (r.kind === "delete") {
      if (r.status === 204 && r.orderId && !orderById.get(r.orderId)?.deleted)
        add(`DELETE of order ${r.orderId} answered 204 but the order is live`);
      continue;
    }
    if (r.kind === "replace") {
      const id = Object.values(r.orders)[0];
      if (id) {
        const created = (byOrder.get(id) ?? []).find((e) => e.type === "shipping_order.created");
        const replaced = created?.data.replaced;
        if (!orderById.has(id)) add(`replacement ${r.idempotencyKey} answered order ${id}, which does not exist`);
        else if (replaced && !orderById.get(replaced)?.deleted)
          add(`order ${id} replaced ${replaced}, which is still live`);
      }
      continue;
    }
    // Fresh references: each request's orders are all there (in one transaction) or none is.
    const wanted = r.references.filter((ref) => !r.failed.includes(ref));
    const stored = wanted.map((ref) =>
      (byReference.get(`${r.accountId}/${ref}`) ?? []).filter((o) => {
        const c = (byOrder.get(o.id) ?? []).find((e) => e.type === "shipping_order.created");
        return !c?.data.replaced; // the request's own create, not a later replacement of the reference
      }),
    );
    const present = stored.filter((s) => s.length > 0).length;
    const twice = stored.filter((s) => s.length > 1).length;
    const txs = new Set(
      stored
        .flat()
        .flatMap((o) =>
          (byOrder.get(o.id) ?? []).filter((e) => e.type === "shipping_order.created").map((e) => e.tx_id),
        ),
    );
    if (twice)
      add(`request ${r.idempotencyKey}: ${twice} references created twice (Idempotency-Key retried ${r.tries} times)`);
    if (present !== 0 && present !== wanted.length)
      add(
        `request ${r.idempotencyKey} (${r.kind} of ${wanted.length}, status ${r.status}): only ${present} orders stored, e.g. ${wanted.find((_, i) => stored[i]!.length === 0)} missing`,
      );
    if (r.status === 200 && present !== wanted.length)
      add(`request ${r.idempotencyKey} answered 200 but ${wanted.length - present} of its orders are not stored`);
    if (r.status === 200)
      for (const [ref, id] of Object.entries(r.orders))
        if (!orderById.has(id)) add(`request ${r.idempotencyKey}: answered order ${id} (${ref}) does not exist`);
    if (txs.size > 1) add(`request ${r.idempotencyKey}: its orders committed in ${txs.size} transactions`);
  }
  return verdict(
    "orders, events and deliveries all-or-nothing per transaction",
    `${orders.length} orders, ${events.length} order events, ${h.requests.length} requests checked`,
    examples,
  );
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** (4) Fairness: the healthy tenant's delivery lag p99 beside the hostile tenant within 2 s of its p99 alone. */
export function fairness(h: History): Verdict {
  const alone = percentile(h.lagAlone, 99);
  const beside = percentile(h.lagBeside, 99);
  const summary = `p50/p99 alone ${fmt(percentile(h.lagAlone, 50))}/${fmt(alone)} (${h.lagAlone.length} events), beside the hostile tenant ${fmt(percentile(h.lagBeside, 50))}/${fmt(beside)} (${h.lagBeside.length} events)`;
  const examples: string[] = [];
  if (!h.lagAlone.length || !h.lagBeside.length) examples.push("no lag measured");
  else if (!(beside <= alone + 2000)) examples.push(`p99 beside ${fmt(beside)} > p99 alone ${fmt(alone)} + 2 s`);
  return verdict("fairness: a healthy tenant's lag within 2 s of its lag alone", summary, examples);
}

const fmt = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "never");

/** A receiver answering in 1.5 s drains at full pace: 8 in flight, so a burst of N takes about N / 8 × 1.5 s. */
export function fullPace(h: History): Verdict {
  if (!h.pace) return verdict("webhooks: a 1.5 s receiver drains at full pace", "not measured", ["not measured"]);
  const { events, seconds, maxInFlight } = h.pace;
  const ideal = (events / 8) * 1.5;
  // Half the full pace, measured against the ideal, leaves room for a busy 2-core machine.
  const bound = ideal * 2 + 5;
  return verdict(
    "webhooks: a 1.5 s receiver drains at full pace",
    `${events} events in ${fmt(seconds * 1000)} (full pace ${ideal.toFixed(1)} s, bound ${bound.toFixed(1)} s), at most ${maxInFlight} in flight`,
    seconds <= bound
      ? []
      : [`${events} events to the 1.5 s receiver took ${fmt(seconds * 1000)} > ${bound.toFixed(1)} s`],
  );
}

/**
 * (5) Nothing pending past its schedule (healthy tenants), and no order whose tracking is long overdue. A delivery
 * counts as stuck when it is overdue and its endpoint is not being worked on: no attempt to that endpoint began in
 * the last 10 s. An endpoint draining a backlog at full pace is not stuck, however long its queue: tracking moves
 * every order of a tenant at once, so a 1-2 s receiver (8 in flight, about 5 events/s) takes 40 s over a wave of 200
 * events whatever the design, and a check falling in such a wave must not count its tail, still being worked on,
 * as overdue.
 */
export async function nothingStuck(h: History, slackSeconds = 30): Promise<Verdict> {
  const ids = healthy(h).map((t) => t.accountId);
  const pending = await h.sql<{ id: string; endpoint_id: string; event_id: string; attempts: number; late: number }[]>`
    select d.id::text, d.endpoint_id::text, d.event_id::text, d.attempts,
           extract(epoch from now() - d.next_attempt_at)::float8 as late
    from webhook_deliveries d
    where d.account_id = any(${ids}::uuid[]) and d.status = 'pending'
      and d.next_attempt_at < now() - make_interval(secs => ${slackSeconds})
      and not exists (select 1 from webhook_deliveries w
        where w.endpoint_id = d.endpoint_id and w.last_attempt_at > now() - interval '10 seconds')
    order by d.next_attempt_at limit 20`;
  const stuck = await h.sql<{ id: string; status: string; late: number }[]>`
    select id::text, status::text, extract(epoch from now() - tracking_next_at)::float8 as late
    from shipping_orders
    where account_id = any(${ids}::uuid[]) and deleted_at is null and tracking_next_at < now() - interval '150 seconds'
    limit 10`;
  const label = new Map(h.tenants.flatMap((t) => t.receivers.map((r) => [r.endpointId, r.label])));
  return verdict(
    `nothing pending past its schedule (+${slackSeconds} s), no order's tracking overdue`,
    `${pending.length} overdue deliveries, ${stuck.length} orders overdue`,
    [
      ...pending.map(
        (p) =>
          `delivery ${p.id} to ${label.get(p.endpoint_id)} (event ${p.event_id}, ${p.attempts} attempts) pending ${p.late.toFixed(0)} s past its next attempt`,
      ),
      ...stuck.map((o) => `order ${o.id} (${o.status}) tracking ${o.late.toFixed(0)} s overdue`),
    ],
  );
}

/** No process exits on its own: a terminated backend or a killed neighbour must not take a process down. */
export function noUnexpectedExit(h: History): Verdict {
  return verdict(
    "processes: none exits on its own",
    `${h.unexpectedExits.length} unexpected exits`,
    h.unexpectedExits.map(
      (e) =>
        `${e.name} exited (code ${e.code}, signal ${e.signal}) at ${new Date(e.at).toISOString().slice(11, 23)}${nearby(h.faults, e.at)}`,
    ),
  );
}

/** (6) No request answered a 5xx but 503 (a 503 is the contract's "database unreachable, retry"; a 500 is a bug). */
export function noServerErrors(h: History): Verdict {
  const errors = h.requests.flatMap((r) => r.serverErrors.map((e) => ({ r, e })));
  return verdict(
    "requests: no answer is a 5xx other than 503",
    `${errors.length} such answers (${h.requests.length} requests)`,
    errors
      .slice(0, 10)
      .map(
        ({ r, e }) =>
          `${r.tenant} ${r.kind} of ${r.references.length}: ${e.status} at ${new Date(e.at).toISOString().slice(11, 23)} (X-Request-Id ${e.requestId})${nearby(h.faults, e.at)}`,
      ),
  );
}

/**
 * The statistics agree with the records they count (the contract's "Statistics by source pair"): for every tenant, the
 * figures the triggers kept as the changes committed (compacted or not) equal a recount of its orders, refused attempts
 * and validation results. `cod` is the live orders' only, so each replacement and delete must have taken its order's
 * COD back in its own transaction.
 */
export async function statisticsAgree(h: History): Promise<Verdict> {
  const ids = `{${h.tenants.map((t) => t.accountId).join(",")}}`;
  const rows = await h.sql.unsafe<StatisticsDisagreement[]>(STATISTICS_DISAGREEMENTS, [ids]);
  return verdict(
    "statistics: the kept figures equal a recount of the records",
    `${rows.length} key(s) of ${h.tenants.length} tenants disagree`,
    rows.slice(0, 20).map(describeDisagreement),
  );
}

export async function checkAll(h: History, progress: (name: string) => void = () => {}): Promise<Verdict[]> {
  const checks: [string, (h: History) => Verdict | Promise<Verdict>][] = [
    ["feed exactly once", feedExactlyOnce],
    ["feed fresh", (x) => feedFresh(x)],
    ["delivered at least once", deliveredAtLeastOnce],
    ["posted once per attempt", postedOncePerAttempt],
    ["answered means done", answeredMeansDone],
    ["signatures", signaturesValid],
    ["all or nothing", allOrNothing],
    ["fairness", fairness],
    ["full pace", fullPace],
    ["nothing stuck", (x) => nothingStuck(x)],
    ["no unexpected exit", noUnexpectedExit],
    ["no server errors", noServerErrors],
    ["statistics agree", statisticsAgree],
  ];
  const verdicts: Verdict[] = [];
  for (const [name, check] of checks) {
    progress(name);
    verdicts.push(await check(h));
  }
  return verdicts;
}

/**
 * (7) No orphan shipment (issue 28, with the courier tenant): after recovery has settled every attempt, the fake
 * PPL's ledger of shipments not cancelled is exactly the courier tenant's live orders (by shipping number); every
 * shipment the fake registered is held by a live order or cancelled at the fake; every deleted order's shipment is
 * cancelled; and no courier request was answered a 5xx other than 503.
 */
export async function courierLedger(
  sql: postgres.Sql,
  tenant: Tenant,
  ledger: { shipmentNumber: string; referenceId: string; customerReference: string; phase: string }[],
  requests: RequestRecord[],
  unsettledAttempts: { id: string; state: string }[],
): Promise<Verdict> {
  const rows = await sql<{ id: string; reference_number: string; deleted: boolean; shipping_number: string }[]>`
    select o.id::text, o.reference_number, o.deleted_at is not null as deleted, p.shipping_number
    from shipping_orders o join parcels p on p.order_id = o.id where o.account_id = ${tenant.accountId}::uuid`;
  const live = new Map(rows.filter((r) => !r.deleted).map((r) => [r.shipping_number, r]));
  const deleted = new Map(rows.filter((r) => r.deleted).map((r) => [r.shipping_number, r]));
  const atFake = new Map(ledger.map((s) => [s.shipmentNumber, s]));
  const examples: string[] = [];
  const add = (text: string) => examples.length < 20 && examples.push(text);
  for (const a of unsettledAttempts) add(`courier attempt ${a.id} still ${a.state} after the quiet phase`);
  for (const s of ledger) {
    if (s.phase === "Canceled") continue;
    if (!live.has(s.shipmentNumber))
      add(
        `orphan shipment ${s.shipmentNumber} (reference ${s.customerReference}) registered at the fake PPL, not cancelled, held by no live order${deleted.has(s.shipmentNumber) ? ` (its order ${deleted.get(s.shipmentNumber)!.id} is deleted)` : ""}`,
      );
  }
  for (const [number, o] of live) {
    const s = atFake.get(number);
    if (!s) add(`live order ${o.id} (${o.reference_number}) holds ${number}, which the fake PPL never registered`);
    else if (s.phase === "Canceled")
      add(`live order ${o.id} (${o.reference_number}) holds ${number}, cancelled at the fake PPL`);
  }
  const errors = requests.flatMap((r) => r.serverErrors.map((e) => ({ r, e })));
  for (const { r, e } of errors.slice(0, 5))
    add(`${r.kind} of ${r.references.length} answered ${e.status} (X-Request-Id ${e.requestId})`);
  const cancelled = ledger.filter((s) => s.phase === "Canceled").length;
  return verdict(
    "couriers: the fake PPL's ledger is the live orders plus cancellations (no orphan shipment)",
    `${ledger.length} shipments at the fake (${cancelled} cancelled), ${live.size} live and ${deleted.size} deleted orders, ${requests.length} requests, ${unsettledAttempts.length} attempts unsettled`,
    examples,
  );
}
