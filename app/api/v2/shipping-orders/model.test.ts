import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partnerInNewAccount } from "@/test/accounts";
import { printFigures } from "@/test/figures";
import { createTestUser, readJson, type TestUser } from "@/test/helpers";
import { activatePair, as, order, type Partner } from "@/test/partner";
import * as create from "../couriers/[courier_id]/shipping-orders/route";
import * as item from "./[id]/route";
import * as list from "./route";

/**
 * Model-based test of create / replace / delete / list. The model is a map from (ReferenceNumber, source
 * pair) to the id of the live order; random command sequences run against the REST handlers and the model
 * side by side, and after every command the live set the API lists must equal the model, every `replaced`
 * must name the model's previous order, and every removed id must answer 404.
 */

const PAIRS = [null, ["shop", "eu"], ["shop", "EU"]] as const;
/** A small alphabet, so replacements happen often; `a` and `A` are different references. */
const REFS = ["A", "a", "B", "C"] as const;
const RUNS = 60;

type Order = {
  id: string;
  referenceNumber: string;
  referenceSource: string;
  sourceIdentifier: string;
  replaced?: string | null;
};
type Envelope = { itemsCount: number; items: Order[] };

const keyOf = (ref: string, pair: number) =>
  JSON.stringify([ref, PAIRS[pair]?.[0] ?? "api", PAIRS[pair]?.[1] ?? "default"]);
const pairName = (pair: number) => (PAIRS[pair] ? PAIRS[pair].join("/") : "api/default");

class Model {
  /** (ReferenceNumber, pair) → id of the live order. */
  readonly live = new Map<string, string>();
  /** Ids that were replaced or deleted: each must answer 404. */
  readonly gone: string[] = [];
}

const stats = { runs: 0, commands: 0, requests: 0, replacements: 0, deletes: 0, fiveXx: 0, lost: 0 };

class Real {
  constructor(readonly partner: Partner) {}

  async send(handler: unknown, path: string, options: Parameters<ReturnType<typeof as>>[2] = {}): Promise<Response> {
    const response = await as(this.partner)(handler, path, options);
    stats.requests += 1;
    if (response.status >= 500) stats.fiveXx += 1;
    return response;
  }

  body(ref: string, pair: number): Record<string, unknown> {
    const p = PAIRS[pair];
    return order({ ReferenceNumber: ref, ...(p ? { ReferenceSource: p[0], SourceIdentifier: p[1] } : {}) });
  }

  async listAll(query = ""): Promise<Envelope> {
    const response = await this.send(list.GET, `/api/v2/shipping-orders?pageSize=50${query}`);
    expect(response.status).toBe(200);
    return readJson<Envelope>(response);
  }

  /** The invariant after every command: the API's live set is the model's, and what is gone stays gone. */
  async verify(model: Model): Promise<void> {
    const page = await this.listAll();
    const actual = new Map(
      page.items.map((o) => [JSON.stringify([o.referenceNumber, o.referenceSource, o.sourceIdentifier]), o.id]),
    );
    expect(page.itemsCount).toBe(model.live.size);
    const missing = [...model.live.values()].filter((id) => !page.items.some((o) => o.id === id));
    stats.lost += missing.length;
    expect(actual).toEqual(model.live);
    if (model.gone.length > 0) {
      const last = model.gone[model.gone.length - 1]!;
      expect((await this.send(item.GET, `/api/v2/shipping-orders/${last}`, { params: { id: last } })).status).toBe(404);
      const listed = await this.listAll(`&ids=${model.gone.slice(-100).join(",")}`);
      expect(listed.items.map((o) => o.id)).toEqual([]);
    }
  }
}

/** The live order this answer replaced must be the one the model had; the model then moves on. */
function applyCreated(model: Model, key: string, created: Order): void {
  const previous = model.live.get(key) ?? null;
  expect(created.replaced ?? null).toBe(previous);
  if (previous) {
    model.gone.push(previous);
    stats.replacements += 1;
  }
  model.live.set(key, created.id);
}

class CreateOne implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly ref: string,
    readonly pair: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const response = await real.send(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: real.body(this.ref, this.pair),
      headers: { "content-type": "application/svc.shipping-order+json" },
      params: { courier_id: "sandbox" },
    });
    expect(response.status).toBe(200);
    const body = await readJson<{ items: Order[]; failed: unknown[] }>(response);
    expect(body.failed).toEqual([]);
    expect(body.items).toHaveLength(1);
    const created = body.items[0]!;
    expect(JSON.stringify([created.referenceNumber, created.referenceSource, created.sourceIdentifier])).toBe(
      keyOf(this.ref, this.pair),
    );
    applyCreated(model, keyOf(this.ref, this.pair), created);
    await real.verify(model);
  }
  toString = () => `create(${this.ref}, ${pairName(this.pair)})`;
}

class CreateBatch implements fc.AsyncCommand<Model, Real> {
  constructor(readonly entries: readonly (readonly [string, number])[]) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const response = await real.send(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: this.entries.map(([ref, pair]) => real.body(ref, pair)),
      headers: { "content-type": "application/svc.shipping-orders+json" },
      params: { courier_id: "sandbox" },
    });
    const keys = this.entries.map(([ref, pair]) => keyOf(ref, pair));
    if (new Set(keys).size < keys.length) {
      // The same reference and pair twice in one request: DUPLICATE_IN_REQUEST, nothing of the batch created.
      expect(response.status).toBe(400);
      const results = await readJson<{ status: string; messages: { code: string }[] }[]>(response);
      expect(results.some((r) => r.messages.some((m) => m.code === "DUPLICATE_IN_REQUEST"))).toBe(true);
    } else {
      expect(response.status).toBe(200);
      const body = await readJson<{ items: Order[]; failed: unknown[] }>(response);
      expect(body.failed).toEqual([]);
      expect(body.items.map((o) => JSON.stringify([o.referenceNumber, o.referenceSource, o.sourceIdentifier]))).toEqual(
        keys,
      );
      body.items.forEach((created, i) => applyCreated(model, keys[i]!, created));
    }
    await real.verify(model);
  }
  toString = () => `createBatch(${this.entries.map(([ref, pair]) => `${ref}@${pairName(pair)}`).join(", ")})`;
}

type Target = { kind: "live" | "gone"; index: number } | { kind: "random"; id: string };

class Delete implements fc.AsyncCommand<Model, Real> {
  constructor(readonly target: Target) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const liveIds = [...model.live.entries()];
    let id: string;
    let liveKey: string | null = null;
    if (this.target.kind === "live" && liveIds.length > 0) {
      [liveKey, id] = liveIds[this.target.index % liveIds.length]!;
    } else if (this.target.kind === "gone" && model.gone.length > 0) {
      id = model.gone[this.target.index % model.gone.length]!;
    } else {
      id = this.target.kind === "random" ? this.target.id : "00000000-0000-4000-8000-000000000000";
    }
    const response = await real.send(item.DELETE, `/api/v2/shipping-orders/${id}`, {
      method: "DELETE",
      params: { id },
    });
    if (liveKey) {
      expect(response.status).toBe(204);
      model.live.delete(liveKey);
      model.gone.push(id);
      stats.deletes += 1;
    } else {
      expect(response.status).toBe(404);
    }
    await real.verify(model);
  }
  toString = () =>
    `delete(${this.target.kind === "random" ? this.target.id : `${this.target.kind}#${this.target.index}`})`;
}

class List implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly refs: readonly string[],
    readonly repeated: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const query = this.repeated
      ? this.refs.map((r) => `&referenceNumbers=${r}`).join("")
      : `&referenceNumbers=${this.refs.join(",")}`;
    const page = await real.listAll(query);
    const expected = [...model.live.entries()]
      .filter(([key]) => this.refs.includes((JSON.parse(key) as string[])[0]!))
      .map(([, id]) => id);
    expect(page.items.map((o) => o.id).sort()).toEqual(expected.sort());
    await real.verify(model);
  }
  toString = () => `list(${this.refs.join(this.repeated ? "&" : ",")})`;
}

const ref = fc.constantFrom(...REFS);
const pair = fc.integer({ min: 0, max: PAIRS.length - 1 });
const createOne = fc.tuple(ref, pair).map(([r, p]) => new CreateOne(r, p));
const commands = fc.commands(
  [
    // Listed twice: creates are what make replacements, so they come up twice as often.
    createOne,
    createOne,
    fc.array(fc.tuple(ref, pair), { minLength: 1, maxLength: 4 }).map((entries) => new CreateBatch(entries)),
    fc
      .oneof(
        { weight: 4, arbitrary: fc.record({ kind: fc.constant("live" as const), index: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant("gone" as const), index: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant("random" as const), id: fc.uuid() }) },
      )
      .map((target: Target) => new Delete(target)),
    fc
      .tuple(fc.subarray([...REFS], { minLength: 1 }), fc.boolean())
      .map(([refs, repeated]) => new List(refs, repeated)),
  ],
  { maxCommands: 14, size: "+1" },
);

describe("model: create, replace, delete and list against a map of live orders", () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
  });
  afterAll(() =>
    printFigures("model create/replace/delete/list", {
      cases: stats.requests,
      fiveXx: stats.fiveXx,
      ordersLost: stats.lost,
      details: [
        `runs=${stats.runs}`,
        `commands=${stats.commands}`,
        `replacements=${stats.replacements}`,
        `deletes=${stats.deletes}`,
      ],
    }),
  );

  it(`agrees with the model after every command (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        stats.runs += 1;
        // A fresh account per run, so the model starts from an empty set of orders.
        const partner = await partnerInNewAccount(owner, { rateLimitPerMinute: 100_000 });
        await activatePair(partner, "shop", "eu");
        await activatePair(partner, "shop", "EU");
        await fc.asyncModelRun(() => ({ model: new Model(), real: new Real(partner) }), cmds);
        stats.commands += [...cmds].length;
      }),
      { numRuns: RUNS },
    );
    expect(stats.replacements).toBeGreaterThan(0);
    expect(stats.deletes).toBeGreaterThan(0);
  }, 120_000);
});
