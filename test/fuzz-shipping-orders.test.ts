import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import * as list from "@/app/api/v2/shipping-orders/route";
import { createTestUser } from "@/test/helpers";
import { accountDigest } from "@/test/account-digest";
import { expectProblem, expectValidationShape } from "@/test/expect-answers";
import { countCase, newFigures, printFigures } from "@/test/figures";
import {
  describeRequest,
  headersOf,
  mutated,
  nastyString,
  nastyValue,
  runs,
  fuzzTimeout,
  wire,
  type Path,
  type Wire,
} from "@/test/fuzz";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";

/**
 * Property-based fuzz of the shipping-order API: validate, create and list, with arbitrary JSON, mutated
 * valid orders and arbitrary query strings. Properties: never a 5xx; a 4xx is a problem document whose
 * `status` is the HTTP status (create's 400 and validate's 200 carry the validation response instead);
 * nothing is stored on a 4xx, and a 200 of create stores exactly what it reports.
 */

const figures = newFigures();
const RUNS = { validate: runs(500), create: runs(500), list: runs(400) };

const ORDER_PATHS: Path[] = [
  [],
  ["ReferenceNumber"],
  ["ExternalReference"],
  ["ReferenceSource"],
  ["SourceIdentifier"],
  ["Service"],
  ["Recipient"],
  ["Recipient", "Name"],
  ["Recipient", "Company"],
  ["Recipient", "Street"],
  ["Recipient", "City"],
  ["Recipient", "Zip"],
  ["Recipient", "Country"],
  ["Recipient", "Email"],
  ["Recipient", "Phone"],
  ["Parcels"],
  ["Parcels", 0],
  ["Parcels", 0, "Weight"],
  ["Parcels", 0, "Length"],
  ["Parcels", 0, "Reference"],
  ["Parcels", 1],
  ["Parcels", 1, "Weight"],
  ["CodPrice"],
  ["CodCurrency"],
  ["VariableSymbol"],
  ["InsurancePrice"],
  ["Note"],
  ["PickupPoint"],
];

const safeText = (max: number) =>
  fc
    .string({ unit: "grapheme", minLength: 1, maxLength: max })
    .filter((s) => s.trim().length > 0 && !s.includes("courier-"));

/** Orders the contract accepts (a few with a source pair, activated or not). */
const validOrder = fc
  .record(
    {
      ReferenceNumber: fc.stringMatching(/^[A-Za-z0-9/_-]{1,20}$/).map((s) => `FZ-${s}`),
      ExternalReference: safeText(64),
      ReferenceSource: fc.constantFrom("shop", "Shop", "erp"),
      SourceIdentifier: fc.constantFrom("eu", "EU"),
      Service: fc.constantFrom("STANDARD", "EXPRESS"),
      Recipient: fc.record(
        {
          Name: safeText(100),
          Company: safeText(100),
          Street: safeText(100),
          City: safeText(60),
          Zip: fc.constantFrom("110 00", "11000"),
          Country: fc.constantFrom("CZ", "cz"),
          Email: fc.constantFrom("jana@example.com", "a.b+c@example.cz"),
          Phone: fc.constantFrom("+420777123456", "+420 777 123 456"),
        },
        { requiredKeys: ["Name", "Street", "City", "Zip", "Country"] },
      ),
      Parcels: fc.array(
        fc.record(
          {
            Weight: fc.integer({ min: 1, max: 31_500 }).map((g) => g / 1000),
            Length: fc.integer({ min: 1, max: 200 }),
            Reference: safeText(64),
          },
          { requiredKeys: ["Weight"] },
        ),
        { minLength: 1, maxLength: 3 },
      ),
      CodPrice: fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
      VariableSymbol: fc.stringMatching(/^\d{1,10}$/),
      InsurancePrice: fc.integer({ min: 0, max: 100_000 }),
      Note: safeText(300),
    },
    { requiredKeys: ["ReferenceNumber", "Recipient", "Parcels"] },
  )
  .map((o) => {
    const out: Record<string, unknown> = { ...o };
    if (o.CodPrice !== undefined) out.CodCurrency = "CZK";
    if ((o.ReferenceSource === undefined) !== (o.SourceIdentifier === undefined)) {
      delete out.ReferenceSource;
      delete out.SourceIdentifier;
    }
    return out;
  });

const orderLike = fc.oneof(
  { weight: 6, arbitrary: mutated(validOrder, ORDER_PATHS, 3) },
  { weight: 2, arbitrary: validOrder },
  { weight: 2, arbitrary: nastyValue },
);

const orderBody = fc.oneof(
  { weight: 5, arbitrary: orderLike },
  { weight: 3, arbitrary: fc.array(orderLike, { minLength: 0, maxLength: 5 }) },
  // A batch with one order repeated: DUPLICATE_IN_REQUEST, and more than 500 orders: 400.
  { weight: 1, arbitrary: validOrder.map((o) => [o, { ...o }]) },
  { weight: 1, arbitrary: fc.constantFrom(0, 501).map((n) => Array.from({ length: n }, () => order())) },
);

const ORDER_TYPES = ["application/svc.shipping-order+json", "application/svc.shipping-orders+json", "application/json"];
const orderContentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ORDER_TYPES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
      "application/svc.shipping-order+json;v=2",
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

type Target = { courier: string; query: string };

/** The courier path parameter and `?profile=`: mostly right, sometimes another account's, unknown or malformed. */
function targets(partner: Partner, foreignProfileId: string): fc.Arbitrary<Target> {
  const profile = fc.oneof(
    { weight: 6, arbitrary: fc.constant("") },
    { weight: 3, arbitrary: fc.constant(`?profile=${partner.profileId}`) },
    { weight: 1, arbitrary: fc.constant(`?profile=${foreignProfileId}`) },
    { weight: 1, arbitrary: fc.uuid().map((u) => `?profile=${u}`) },
    { weight: 1, arbitrary: nastyString.map((s) => `?profile=${encodeURIComponent(s.toWellFormed())}`) },
    { weight: 1, arbitrary: fc.constant(`?profile=${partner.profileId}&profile=${partner.profileId}`) },
  );
  const courier = fc.oneof(
    { weight: 9, arbitrary: fc.constant("sandbox") },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom("SANDBOX", "acme", "", ".."), nastyString) },
  );
  return fc.record({ courier, query: profile });
}

/** How many orders the request carries when it is read as the contract says, or null if it is no batch/order. */
function orderCount(w: Wire): number | null {
  let body: unknown;
  try {
    body = JSON.parse(w.raw);
  } catch {
    return null;
  }
  const type = (w.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (!ORDER_TYPES.includes(type)) return null;
  const many = type === "application/svc.shipping-orders+json" || (type === "application/json" && Array.isArray(body));
  if (!many) return Array.isArray(body) ? null : 1;
  return Array.isArray(body) ? body.length : null;
}

const wireOf = (body: fc.Arbitrary<unknown>) => wire(body, orderContentType);

describe("fuzz: validate, create and list", () => {
  let partner: Partner;
  let foreignProfileId: string;
  beforeAll(async () => {
    partner = await createPartner({ rateLimitPerMinute: 100_000 });
    await activatePair(partner, "shop", "eu");
    foreignProfileId = (await createPartner()).profileId;
  });
  afterAll(() => printFigures("fuzz shipping orders (validate, create, list)", figures));

  it(
    `validate: never a 5xx, 200 with the validation shape or a 4xx problem, stores no order (${RUNS.validate} cases)`,
    { timeout: fuzzTimeout(RUNS.validate) },
    async () => {
      await fc.assert(
        fc.asyncProperty(wireOf(orderBody), targets(partner, foreignProfileId), async (w, t) => {
          const before = await accountDigest(partner.accountId);
          const path = `/api/v2/couriers/${encodeURIComponent(t.courier.toWellFormed())}/shipping-orders/validate${t.query}`;
          const context = describeRequest("POST", path, w);
          const response = await as(partner)(validate.POST, path, {
            method: "POST",
            rawBody: w.raw,
            headers: headersOf(w),
            params: { courier_id: t.courier },
          });
          countCase(figures, response);
          expect(response.status, context).toBeLessThan(500);
          if (response.status === 200) {
            expect(response.headers.get("content-type"), context).toBe("application/json");
            const body: unknown = await response.json();
            const count = orderCount(w);
            if (Array.isArray(body)) {
              expect(count, context).toBe(body.length);
              body.forEach((item) => expectValidationShape(item, context));
            } else {
              expect(count, context).toBe(1);
              expectValidationShape(body, context);
            }
          } else {
            await expectProblem(response, context);
          }
          expect(await accountDigest(partner.accountId), context).toEqual(before);
        }),
        { numRuns: RUNS.validate },
      );
    },
  );

  it(
    `create: never a 5xx, a 4xx stores nothing, a 200 stores exactly what it reports (${RUNS.create} cases)`,
    { timeout: fuzzTimeout(RUNS.create) },
    async () => {
      await fc.assert(
        fc.asyncProperty(wireOf(orderBody), targets(partner, foreignProfileId), async (w, t) => {
          const before = await accountDigest(partner.accountId);
          const path = `/api/v2/couriers/${encodeURIComponent(t.courier.toWellFormed())}/shipping-orders${t.query}`;
          const context = describeRequest("POST", path, w);
          const response = await as(partner)(create.POST, path, {
            method: "POST",
            rawBody: w.raw,
            headers: headersOf(w),
            params: { courier_id: t.courier },
          });
          countCase(figures, response);
          expect(response.status, context).toBeLessThan(500);
          const after = async () => accountDigest(partner.accountId);
          if (response.status === 200) {
            expect(response.headers.get("content-type"), context).toBe("application/json");
            const body = (await response.json()) as {
              items: { id: string; shippingNumber: string[] }[];
              failed: unknown[];
            };
            expect(body.items.length + body.failed.length, context).toBe(orderCount(w));
            const now = await after();
            expect(now.orders - before.orders, context).toBe(body.items.length);
            expect(now.parcels - before.parcels, context).toBe(
              body.items.reduce((n, i) => n + i.shippingNumber.length, 0),
            );
            return;
          }
          if (response.status === 400 && response.headers.get("content-type") === "application/json") {
            const body: unknown = await response.json();
            const results = Array.isArray(body) ? body : [body];
            expect(results.length, context).toBe(orderCount(w));
            results.forEach((r) => expectValidationShape(r, context));
            expect(
              results.some((r) => (r as { status: string }).status === "ERROR"),
              context,
            ).toBe(true);
          } else {
            await expectProblem(response, context);
          }
          expect(await after(), context).toEqual(before);
        }),
        { numRuns: RUNS.create },
      );
    },
  );

  it(
    `list: never a 5xx, a 400 names a parameter of the query, a 200 is the envelope (${RUNS.list} cases)`,
    { timeout: fuzzTimeout(RUNS.list) },
    async () => {
      const made = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body: [
          order({ ReferenceNumber: "LIST-1" }),
          order({ ReferenceNumber: "LIST-2", Parcels: [{ Weight: 1 }, { Weight: 2 }] }),
        ],
        params: { courier_id: "sandbox" },
      });
      const seeded = (
        (await made.json()) as { items: { id: string; referenceNumber: string; shippingNumber: string[] }[] }
      ).items;
      expect(seeded).toHaveLength(2);
      const stranger = await createTestUser();
      const known = [
        ...seeded.flatMap((o) => [o.id, o.referenceNumber, ...o.shippingNumber]),
        partner.profileId,
        stranger.accountId,
      ];
      const NAMES = [
        "createdFrom",
        "createdTo",
        "referenceNumbers",
        "ids",
        "shippingNumbers",
        "status",
        "courier",
        "courierProfile",
        "page",
        "pageSize",
      ];
      const value = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...known) },
        { weight: 2, arbitrary: fc.uuid() },
        {
          weight: 4,
          arbitrary: fc.constantFrom(
            "2026-01-01",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00.5",
            "2026-01-01T00:00:00Z",
            "2099-12-31T23:59:59",
            "1970-01-01",
            "2026-02-30",
            "2026-13-01",
            "2026-01-01T24:00:00",
            "2026-01-01T23:60:00",
            "0000-00-00",
            "0000-01-01",
            "0001-01-01",
            "0050-06-01T00:00:00",
            "+275760-09-13",
            "9999-12-31",
            "9999-12-31T23:59:59.999",
            "LIST-1\u0000",
            "a%00b",
            "yesterday",
            "1",
            "0",
            "50",
            "51",
            "-1",
            "1.5",
            "1e3",
            "999999999",
            "9999999999",
            "00001",
            "CREATED",
            "created",
            "DELIVERED,CANCELLED",
            "sandbox",
            "acme",
            ",",
            ",,",
            " , ",
            "%",
            "%2C",
            "LIST-1,LIST-2",
          ),
        },
        { weight: 3, arbitrary: nastyString },
        { weight: 1, arbitrary: fc.array(fc.uuid(), { minLength: 2, maxLength: 120 }).map((ids) => ids.join(",")) },
        { weight: 1, arbitrary: fc.constantFrom(65, 101, 5_000).map((n) => "r".repeat(n)) },
      );
      const pair = fc.tuple(
        fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: nastyString }),
        value,
      );
      const query = fc.oneof(
        {
          weight: 5,
          arbitrary: fc.array(pair, { maxLength: 6 }).map((pairs) => new URLSearchParams(pairs).toString()),
        },
        // Raw, unencoded query text: the URL parser decides what arrives.
        {
          weight: 1,
          arbitrary: fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("&")),
        },
      );
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          let url: URL;
          try {
            url = new URL(`http://localhost/api/v2/shipping-orders?${q}`);
          } catch {
            fc.pre(false);
            return;
          }
          const before = await accountDigest(partner.accountId);
          const path = `${url.pathname}${url.search}`;
          const response = await as(partner)(list.GET, path);
          countCase(figures, response);
          const context = describeRequest("GET", path);
          expect(response.status, context).toBeLessThan(500);
          if (response.status === 200) {
            const body = (await response.json()) as {
              page: number;
              pageSize: number;
              totalPages: number;
              itemsCount: number;
              items: unknown[];
            };
            expect(body.items.length, context).toBeLessThanOrEqual(body.pageSize);
            expect(body.totalPages, context).toBe(Math.ceil(body.itemsCount / body.pageSize));
            expect(body.page, context).toBeGreaterThanOrEqual(1);
          } else {
            expect(response.status, context).toBe(400);
            const problem = await expectProblem(response, context);
            const keys = new Set(url.searchParams.keys());
            expect(problem.errors?.length, context).toBeGreaterThan(0);
            for (const e of problem.errors ?? [])
              expect(keys.has(e.field), `${context}: ${e.field} is not a parameter of the query`).toBe(true);
          }
          expect(await accountDigest(partner.accountId), context).toEqual(before);
        }),
        { numRuns: RUNS.list },
      );
    },
  );
});
