/**
 * The nemesis: a seeded schedule of faults during the chaos phase, each recorded with its start and end so a
 * violation can be laid beside the faults around it.
 *  - kill / term: SIGKILL or SIGTERM of a web process or a worker, restarted once it is gone;
 *  - terminate-backends: pg_terminate_backend of the app's backends in bursts for a few seconds, those 'idle in
 *    transaction' (a transaction between two statements: half a transaction), now and then any, beside large
 *    batches and enough small creates to keep every pool busy (INVARIANTS_POOL_MAX=2 or 3; README: why today's
 *    transactions cannot be cut in half);
 *  - hold-lock: the advisory lock persist-orders.ts takes for (account, reference), held from outside while a
 *    batch with that reference is sent, so its transaction waits inside BEGIN for 6-8 s (a feed must not skip it);
 *  - other-role-transaction: a role without pg_read_all_stats opens a transaction, writes a row (an xid) and
 *    keeps it open 20-30 s (a report or migration; a feed must not freeze behind it);
 *  - courier-late / courier-hang / courier-cut / courier-in-process (only with the courier tenant,
 *    INVARIANTS_COURIERS=1; issue 28): for 6-12 s (one at a time) the fake PPL registers a batch and answers it only after the
 *    profile's timeout, answers nothing at all, registers a batch and resets the connection instead of answering, or
 *    keeps the batches registered meanwhile `InProcess` until it ends (PPL busy for a while: a number of polls
 *    would outlast recovery's 5 minutes at one recovery a minute); courier-kill: SIGKILL of the web process a
 *    courier create is on, right after the fake registered its batch (between PPL's answer and the commit).
 */
import type postgres from "postgres";
import type { Cluster, Database } from "./cluster";
import { PPL_TIMEOUT_MS, type FakeCourier } from "./couriers";
import { sleep, waitUntil, type Random } from "./random";
import type { Tenant } from "./tenants";
import type { Workload } from "./workload";

export type Fault = { fault: string; target: string; start: number; end: number | null; detail: string };

export type FaultKind = (typeof FAULTS)[number];

export type NemesisContext = {
  /** The kinds to inject (INVARIANTS_FAULTS; default all): to tell which fault shows a finding. */
  kinds: readonly FaultKind[];
  cluster: Cluster;
  database: Database;
  workload: Workload;
  tenants: Tenant[];
  random: Random;
  /** The fake PPL of the courier tenant (INVARIANTS_COURIERS=1), null without it: the courier faults then do nothing. */
  courier: FakeCourier | null;
  /** The courier tenant's workload (its requests in flight: which web process a create is on). */
  courierWorkload: Workload | null;
};

export const FAULTS = [
  "kill-web",
  "term-web",
  "kill-worker",
  "term-worker",
  "terminate-backends",
  "hold-lock",
  "other-role-transaction",
  "courier-late",
  "courier-hang",
  "courier-cut",
  "courier-in-process",
  "courier-kill",
] as const;

/** The faults of the fake courier: in the default set only when the courier tenant runs (INVARIANTS_COURIERS=1). */
export const COURIER_FAULTS: readonly FaultKind[] = [
  "courier-late",
  "courier-hang",
  "courier-cut",
  "courier-in-process",
  "courier-kill",
];

export class Nemesis {
  readonly history: Fault[] = [];
  private running: Promise<unknown>[] = [];
  private otherRole: postgres.Sql | null = null;
  private otherRoleOpen = false;
  /** The fake PPL's faults, one after another (a second waits for the first to end). */
  private courierFaults: Promise<void> = Promise.resolve();
  /** The chaos phase is over: a courier fault still queued is dropped rather than run into the quiet phase. */
  private over: () => boolean = () => false;

  constructor(private readonly ctx: NemesisContext) {}

  private record(fault: string, target: string, detail = ""): Fault {
    const f = { fault, target, start: Date.now(), end: null, detail };
    this.history.push(f);
    console.log(`  nemesis +${fault} ${target} ${detail}`);
    return f;
  }

  /** Faults every 3-8 s until `until`; each runs in the background (they overlap), all have ended on return. */
  async run(until: () => boolean): Promise<void> {
    const { random, kinds } = this.ctx;
    this.over = until;
    if (!kinds.length) return;
    // Every kind at least once per run, in a seeded order, then seeded picks.
    const order = [...kinds].sort(() => random.next() - 0.5);
    let i = 0;
    while (!until()) {
      const fault = i < order.length ? order[i]! : random.pick(kinds);
      i += 1;
      this.running.push(
        this.inject(fault).catch((e: unknown) => console.log(`  nemesis ${fault} failed: ${String(e)}`)),
      );
      await sleep(random.int(3000, 8000));
    }
    await Promise.all(this.running);
    await this.otherRole?.end({ timeout: 5 });
  }

  private async inject(fault: FaultKind): Promise<void> {
    const { cluster, random } = this.ctx;
    switch (fault) {
      case "kill-web":
      case "term-web":
      case "kill-worker":
      case "term-worker": {
        const role = fault.endsWith("web") ? "web" : "worker";
        // Never the last web process standing: the clients need one to talk to.
        const candidates = cluster.members.filter(
          (m) => m.role === role && m.up && (role === "worker" || cluster.liveWebUrls().length > 1),
        );
        if (!candidates.length) return;
        const m = random.pick(candidates);
        const f = this.record(fault, m.name, `pid ${m.child?.pid}`);
        if (fault.startsWith("kill")) await cluster.kill(m);
        else await cluster.terminate(m);
        await sleep(random.int(500, 3000));
        await cluster.restart(m);
        f.end = Date.now();
        return;
      }
      case "terminate-backends":
        return this.terminateBackends();
      case "hold-lock":
        return this.holdLock();
      case "other-role-transaction":
        return this.otherRoleTransaction();
      case "courier-late":
      case "courier-hang":
      case "courier-cut":
      case "courier-in-process": {
        const next = this.courierFaults.then(() => this.courierFault(fault));
        this.courierFaults = next.catch(() => {});
        return next;
      }
      case "courier-kill":
        return this.courierKill();
    }
  }

  /** One fault of the fake PPL at a time, 6-12 s, then back to answering normally. */
  private async courierFault(fault: FaultKind): Promise<void> {
    const { courier, random } = this.ctx;
    if (!courier || this.over()) return;
    const hold = random.int(6000, 12_000);
    const lateMs = PPL_TIMEOUT_MS + random.int(1000, 4000);
    const kind = fault.slice("courier-".length) as "late" | "hang" | "cut" | "in-process";
    const f = this.record(fault, "fake-ppl", `${hold} ms${kind === "late" ? `, answers after ${lateMs} ms` : ""}`);
    try {
      await courier.setFault(kind, { lateMs });
      await sleep(hold);
    } finally {
      await courier
        .setFault("ok")
        .catch((e: unknown) => console.log(`  nemesis: the fake PPL stayed faulty: ${String(e)}`));
      f.end = Date.now();
    }
  }

  /**
   * A process killed between the courier's answer and the commit: waits until the fake PPL has registered a batch
   * and sent its 201, then SIGKILLs the web process the courier tenant's create in flight is on (while it reads the
   * batch's numbers or commits), unless it is the last web process up.
   */
  private async courierKill(): Promise<void> {
    const { courier, courierWorkload, cluster, random } = this.ctx;
    if (!courier || !courierWorkload) return;
    if (!(await courier.nextRegistration())) return;
    // Its one client sends one request at a time: the latest is the one in flight.
    const latest = courierWorkload.requests.at(-1);
    const request = latest && latest.answered === null && latest.kind !== "delete" ? latest : undefined;
    const m = cluster.webs().find((w) => w.up && w.url === request?.url);
    if (!request || !m || cluster.liveWebUrls().length < 2) return;
    const f = this.record(
      "courier-kill",
      m.name,
      `pid ${m.child?.pid}, right after PPL registered a batch (request ${request.idempotencyKey})`,
    );
    await cluster.kill(m);
    await sleep(random.int(500, 3000));
    await cluster.restart(m);
    f.end = Date.now();
  }

  private async terminateBackends(): Promise<void> {
    const { database, random, workload, tenants } = this.ctx;
    const f = this.record("terminate-backends", database.appRole);
    const until = Date.now() + random.int(3000, 8000);
    // Large batches beside it: their transactions spend the longest between two statements (rows built in
    // JavaScript), which is where a terminated backend leaves the rest of the transaction to run on a new session.
    const tenant = bulkTenant(tenants);
    const [least, most] = process.env.INVARIANTS_POOL_MAX ? [200, 500] : [50, 150];
    const batches = Array.from({ length: 3 }, () =>
      workload.create(
        tenant,
        Array.from({ length: random.int(least, most) }, () => workload.freshReference(tenant)),
        "batch",
      ),
    );
    // And many small creates at once, so no connection of a process's pool is idle (with INVARIANTS_POOL_MAX at 2
    // or 3): postgres.js then reconnects a terminated reserved connection at once for a waiting query (index.js
    // `onclose`, or `handler` finding no open connection), while the transaction that reserved it may still be in
    // its body; a statement of the body written to that new session would run there in autocommit.
    // Bursts with pauses between them let the pools reconnect and fill again, so each burst meets transactions in
    // their bodies rather than waiting to begin.
    // 24 loops keep a pool of 2 or 3 busy; with the app's own pool (the default run) they only pile up a backlog of
    // thousands of deliveries that the quiet phase cannot drain on two cores, so a few suffice there.
    const loops = process.env.INVARIANTS_POOL_MAX ? 24 : 4;
    const load = Array.from({ length: loops }, async () => {
      while (Date.now() < until) await workload.create(tenant, [workload.freshReference(tenant)], "create");
    });
    let killed = 0;
    while (Date.now() < until) {
      await sleep(random.int(100, 600));
      // One statement finds and ends them: the state read is as fresh as it can be.
      const [{ n }] = await database.admin<{ n: number }[]>`
        select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
        where usename = ${database.appRole} and datname = ${database.name} and state = 'idle in transaction'`;
      killed += n;
      if (random.chance(0.02)) {
        const [any] = await database.admin<{ n: number }[]>`
          select count(*) filter (where pg_terminate_backend(pid))::int as n from (
            select pid from pg_stat_activity where usename = ${database.appRole} and datname = ${database.name}
            order by random() limit 1) a`;
        killed += any?.n ?? 0;
      }
    }
    await Promise.all([...batches, ...load]);
    f.end = Date.now();
    f.detail = `${killed} backends terminated (batches beside it: ${tenant.name})`;
  }

  private async holdLock(): Promise<void> {
    const { database, workload, tenants, random } = this.ctx;
    const tenant = bulkTenant(tenants);
    const reference = workload.freshReference(tenant);
    const hold = random.int(6000, 8000);
    const f = this.record("hold-lock", tenant.name, `reference ${reference} for ${hold} ms`);
    const session = await database.admin.reserve();
    try {
      await session`select pg_advisory_lock(hashtextextended(${tenant.accountId}::text || ':' || ${reference}, 0))`;
      // A large batch whose transaction waits on the held reference (its insert then takes a while); other creates
      // of the account commit beside it while the readers follow the feed, most of them right as the lock is let go.
      const others = Array.from({ length: random.int(150, 300) }, () => workload.freshReference(tenant));
      const batch = workload.create(tenant, [reference, ...others], "batch");
      // The batch is validated and sent to the sandbox courier before its transaction: the hold counts from when
      // its transaction waits on the lock.
      const waiting = await waitUntil(
        async () => {
          const [row] = await database.admin<{ n: number }[]>`
          select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and not l.granted and a.usename = ${database.appRole}`;
          return row!.n > 0;
        },
        60_000,
        50,
      );
      f.detail += waiting ? "" : " (the batch never waited on the lock)";
      await sleep(hold);
      await session`select pg_advisory_unlock_all()`;
      const beside: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) {
        beside.push(workload.create(tenant, [workload.freshReference(tenant)], "create"));
        await sleep(random.int(20, 120));
      }
      await Promise.all([batch, ...beside]);
    } finally {
      session.release();
      f.end = Date.now();
    }
  }

  private async otherRoleTransaction(): Promise<void> {
    const { database, random } = this.ctx;
    // One such transaction at a time (one session): a second would only queue behind the first.
    if (this.otherRoleOpen) return;
    this.otherRoleOpen = true;
    const hold = random.int(20_000, 30_000);
    const f = this.record("other-role-transaction", database.reportRole, `open ${hold} ms`);
    if (!this.otherRole) {
      await database.admin.unsafe(`create table if not exists report_scratch (id serial primary key, at timestamptz)`);
      await database.admin.unsafe(`grant all on report_scratch, report_scratch_id_seq to "${database.reportRole}"`);
      const url = new URL(database.url);
      url.username = database.reportRole;
      this.otherRole = (await import("postgres")).default(url.toString(), { max: 1, onnotice: () => {} });
    }
    try {
      await this.otherRole.begin(async (tx) => {
        await tx`insert into report_scratch (at) values (now())`;
        await sleep(hold);
      });
    } finally {
      this.otherRoleOpen = false;
      f.end = Date.now();
    }
  }
}

/**
 * The tenant the faults' own large batches go to: one that has no workload of its own and one receiver for its
 * creations only, so hundreds of orders per fault do not bury the other tenants' slow receivers under a backlog
 * that their full pace (8 in flight) cannot drain; its readers still follow those batches through the feed.
 */
function bulkTenant(tenants: Tenant[]): Tenant {
  const bulk = tenants.find((t) => t.bulk);
  if (!bulk) throw new Error("the run has no bulk tenant");
  return bulk;
}
