/**
 * The clients: random creates (single, batch, replacements), deletes, through the REST API of whichever web
 * process is up, each create with an Idempotency-Key and retried with the same key until it is answered, so the
 * ledger knows what each request did. Tracking moves on its own (the sandbox profile's short step).
 */
import type { Cluster } from "./cluster";
import { sleep, type Random } from "./random";
import type { Tenant } from "./tenants";

export type RequestKind = "create" | "batch" | "replace" | "delete";

export type RequestRecord = {
  tenant: string;
  accountId: string;
  kind: RequestKind;
  idempotencyKey: string | null;
  references: string[];
  /** delete: the order deleted. */
  orderId: string | null;
  started: number;
  /** When the final answer arrived (null: never answered, e.g. every try met a killed process). */
  answered: number | null;
  status: number | null;
  tries: number;
  /** create: reference → the order answered. */
  orders: Record<string, string>;
  failed: string[];
  /** Tries answered with a 5xx other than 503 (a 503 says "the database is unreachable, retry": the contract's). */
  serverErrors: { status: number; at: number; requestId: string | null }[];
  /** The web process the latest try went to (the nemesis's courier-kill kills the one a courier create is on). */
  url?: string;
};

const createPath = (t: Tenant) => `/api/v2/couriers/${t.courier ?? "sandbox"}/shipping-orders`;

const order = (reference: string) => ({
  ReferenceNumber: reference,
  Recipient: {
    Name: "Jana Nováková",
    Street: "Dlouhá 12",
    City: "Praha",
    Zip: "110 00",
    Country: "CZ",
    // PPL wants a way to reach the recipient (the sandbox takes them as they are).
    Email: "jana@example.com",
    Phone: "+420777123456",
  },
  Parcels: [{ Weight: 1.5 }],
});

export class Workload {
  readonly requests: RequestRecord[] = [];
  private counter = 0;
  /** References with a live order answered to us, per tenant (replacements and deletes pick from them). */
  private live = new Map<string, Map<string, string>>();
  /** References with a request in flight: one request per reference at a time, so the ledger is unambiguous. */
  private busy = new Set<string>();

  constructor(
    private readonly cluster: Cluster,
    private readonly tag: string,
  ) {}

  private liveOf(t: Tenant) {
    let m = this.live.get(t.name);
    if (!m) this.live.set(t.name, (m = new Map()));
    return m;
  }

  freshReference(t: Tenant): string {
    this.counter += 1;
    return `${t.name.toUpperCase()}-${this.tag}-${this.counter}`;
  }

  /**
   * Sends until answered (any status but a network error, 5xx, 409 in progress or 429), within `deadlineMs`. The
   * body is read here too: a process killed while sending it cut the answer, which counts as no answer (retried).
   */
  private async send(
    record: RequestRecord,
    init: (url: string) => Promise<Response>,
    deadlineMs = 60_000,
  ): Promise<{ ok: boolean; body: string } | null> {
    this.requests.push(record);
    const deadline = Date.now() + deadlineMs;
    while (Date.now() < deadline) {
      const urls = this.cluster.liveWebUrls();
      if (!urls.length) {
        await sleep(200);
        continue;
      }
      record.tries += 1;
      record.url = urls[record.tries % urls.length]!;
      try {
        const res = await init(record.url);
        const body = await res.text();
        if (res.status >= 500 && res.status !== 503)
          record.serverErrors.push({ status: res.status, at: Date.now(), requestId: res.headers.get("x-request-id") });
        if (res.status >= 500 || res.status === 409 || res.status === 429) {
          await sleep(res.status === 429 ? 1000 : 250);
          continue;
        }
        record.status = res.status;
        record.answered = Date.now();
        return { ok: res.ok, body };
      } catch {
        await sleep(250);
      }
    }
    return null;
  }

  async create(t: Tenant, references: string[], kind: RequestKind): Promise<RequestRecord> {
    const record: RequestRecord = {
      tenant: t.name,
      accountId: t.accountId,
      kind,
      idempotencyKey: `idem-${this.tag}-${++this.counter}`,
      references,
      orderId: null,
      started: Date.now(),
      answered: null,
      status: null,
      tries: 0,
      orders: {},
      failed: [],
      serverErrors: [],
    };
    for (const r of references) this.busy.add(r);
    const batch = references.length > 1;
    const body = JSON.stringify(batch ? references.map(order) : order(references[0]!));
    try {
      const res = await this.send(record, (url) =>
        fetch(url + createPath(t), {
          method: "POST",
          headers: {
            "content-type": batch ? "application/svc.shipping-orders+json" : "application/svc.shipping-order+json",
            "x-api-key": t.key,
            "idempotency-key": record.idempotencyKey!,
          },
          body,
          signal: AbortSignal.timeout(45_000),
        }),
      );
      if (res?.ok) {
        const answer = JSON.parse(res.body) as {
          items: { id: string; referenceNumber: string }[];
          failed: { referenceNumber: string }[];
        };
        for (const item of answer.items) {
          record.orders[item.referenceNumber] = item.id;
          this.liveOf(t).set(item.referenceNumber, item.id);
        }
        record.failed = answer.failed.map((f) => f.referenceNumber);
      }
    } finally {
      for (const r of references) this.busy.delete(r);
    }
    return record;
  }

  async remove(t: Tenant, random: Random): Promise<void> {
    const candidates = [...this.liveOf(t).entries()].filter(([r]) => !this.busy.has(r));
    if (!candidates.length) return;
    const [reference, id] = random.pick(candidates);
    this.busy.add(reference);
    this.liveOf(t).delete(reference);
    const record: RequestRecord = {
      tenant: t.name,
      accountId: t.accountId,
      kind: "delete",
      idempotencyKey: null,
      references: [reference],
      orderId: id,
      started: Date.now(),
      answered: null,
      status: null,
      tries: 0,
      orders: {},
      failed: [],
      serverErrors: [],
    };
    try {
      await this.send(record, (url) =>
        fetch(`${url}/api/v2/shipping-orders/${id}`, {
          method: "DELETE",
          headers: { "x-api-key": t.key },
          signal: AbortSignal.timeout(45_000),
        }),
      );
    } finally {
      this.busy.delete(reference);
    }
  }

  /** One random step for a tenant: mostly single creates, some batches (of 2 to `maxBatch`), replacements and deletes. */
  async step(t: Tenant, random: Random, maxBatch: number): Promise<void> {
    const roll = random.next();
    if (roll < 0.5) await this.create(t, [this.freshReference(t)], "create");
    else if (roll < 0.65)
      await this.create(
        t,
        Array.from({ length: random.int(2, maxBatch) }, () => this.freshReference(t)),
        "batch",
      );
    else if (roll < 0.85) {
      const candidates = [...this.liveOf(t).keys()].filter((r) => !this.busy.has(r));
      if (candidates.length) await this.create(t, [random.pick(candidates)], "replace");
    } else await this.remove(t, random);
  }

  /** `clients` loops of steps for a tenant until `until`, each pausing `pauseMs` between steps. */
  async run(
    t: Tenant,
    random: Random,
    until: () => boolean,
    { clients, pauseMs, maxBatch }: { clients: number; pauseMs: [number, number]; maxBatch: number },
  ) {
    await Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        const r = random.fork(`client-${i}`);
        while (!until()) {
          await this.step(t, r, maxBatch);
          await sleep(r.int(pauseMs[0], pauseMs[1]));
        }
      }),
    );
  }

  /** Creates only, at a steady pace: what the fairness lag is measured on. */
  async steady(t: Tenant, until: () => boolean, everyMs: number) {
    const inFlight: Promise<unknown>[] = [];
    while (!until()) {
      inFlight.push(this.create(t, [this.freshReference(t)], "create"));
      await sleep(everyMs);
    }
    await Promise.all(inFlight);
  }
}
