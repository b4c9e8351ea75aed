import { readdirSync, readFileSync } from "node:fs";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getDocument } from "@/app/api/v2/openapi.json/route";
import { POST as createOrders } from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { POST as validateOrders } from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import { GET as listCouriers } from "@/app/api/v2/couriers/route";
import { GET as listApiKeys } from "@/app/api/v2/private/api-keys/route";
import { GET as listOrders } from "@/app/api/v2/shipping-orders/route";
import { GET as getOrder } from "@/app/api/v2/shipping-orders/[id]/route";
import { problem } from "@/server/http/problem";
import { operations as descriptors } from "@/server/operations";
import { ZPL_MEDIA_TYPE } from "@/server/labels/label-format";
import { MAX_BATCH, ORDER_BATCH_TYPE, SINGLE_ORDER_TYPE } from "@/server/services/shipping-orders/order-batch";
import { call } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { buildOpenApiDocument, componentSchemas } from "./document";
import {
  openApiDocumentJson,
  operationsOf,
  refName,
  type DocumentJson,
  type JsonSchema,
  type MediaJson,
  type OperationJson,
} from "./document-json";

const doc = openApiDocumentJson();

/**
 * The document's own JSON Schemas, as a validator or gateway built from the document would apply them (the
 * zod schemas behind them can accept more or less than what they render to: this catches the difference).
 */
const DOC_ID = "https://openapi.test/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...doc, $id: DOC_ID });
const rebased = (schema: JsonSchema): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`)) as object;
function schemaErrors(schema: JsonSchema, value: unknown): string {
  const check = ajv.compile(rebased(schema));
  return check(value) ? "" : ajv.errorsText(check.errors);
}

const descriptorKeys = descriptors.map((d) => `${d.method.toUpperCase()} ${d.path}`);
const operations = operationsOf(doc).map(({ method, path, op }) => ({ key: `${method.toUpperCase()} ${path}`, op }));
const operation = (key: string): OperationJson => {
  const found = operations.find((o) => o.key === key);
  if (!found) throw new Error(`no operation ${key}`);
  return found.op;
};

/** The component a media type's schema references; every JSON body of the document references one. */
const componentOf = (media: MediaJson | undefined): string => {
  const ref = media?.schema?.$ref;
  if (!ref) throw new Error("the media type names no component schema");
  return refName(ref);
};

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validate(buildOpenApiDocument() as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("documents exactly the operations the descriptors declare, in their order", () => {
    expect(operations.map((o) => o.key)).toEqual(descriptorKeys);
  });

  it("has a descriptor for every REST route handler the app serves, and a route for every descriptor", () => {
    const served = readdirSync("app/api", { recursive: true, encoding: "utf8" })
      .filter(
        (file) =>
          file.endsWith("route.ts") &&
          // The next-auth and tRPC doors, and Prometheus's scrape endpoint (operations, not the partner API).
          !/^(auth|trpc|metrics)\//.test(file) &&
          !file.includes("openapi.json") &&
          !file.includes("[...path]"),
      )
      .flatMap((file) => {
        const path = `/api/${file.replace(/\/?route\.ts$/, "")}`.replace(/\[(\w+)\]/g, "{$1}");
        const source = readFileSync(`app/api/${file}`, "utf8");
        return [...source.matchAll(/export (?:const|async function|function) (GET|POST|PATCH|PUT|DELETE)\b/g)].map(
          (m) => `${m[1]} ${path}`,
        );
      });
    expect(served.sort()).toEqual([...descriptorKeys].sort());
  });

  it("describes every operation: summary, description, a unique operationId, tags and explicit security", () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op } of operations) {
      expect(op.summary, key).toBeTruthy();
      expect(op.description.length, key).toBeGreaterThan(40);
      expect(op.tags.length, key).toBeGreaterThan(0);
      expect(op.security, key).toBeDefined();
    }
  });

  it("secures the shipping-order API with an API key in either header, the private API with an access token, and leaves token and health open", () => {
    expect(doc.components.securitySchemes.ApiKeyBearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.ApiKeyHeader).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
    expect(doc.components.securitySchemes.AccessToken).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
    for (const { key, op } of operations) {
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s)).sort();
      if (key.includes("/private/")) expect(schemes, key).toEqual(["AccessToken"]);
      else if (["POST /api/v2/auth/token", "GET /api/health", "GET /api/health/ready"].includes(key))
        expect(schemes, key).toEqual([]);
      else expect(schemes, key).toEqual(["ApiKeyBearer", "ApiKeyHeader"]);
    }
  });

  it("documents the problems each operation's auth, body and query imply, as problems with examples", () => {
    for (const descriptor of descriptors) {
      const key = `${descriptor.method.toUpperCase()} ${descriptor.path}`;
      const op = operation(key);
      const implied = [400];
      if (descriptor.serverErrors !== false) implied.push(500, 503);
      if (descriptor.auth === "accessToken") implied.push(401, ...(descriptor.method === "get" ? [] : [403]));
      else if (descriptor.auth !== "none") implied.push(401, 403, 429);
      if (descriptor.body) implied.push(413, 415);
      if (Object.keys(descriptor.query?.shape ?? {}).includes("accountId")) implied.push(404);
      const errors = Object.keys(op.responses)
        .map(Number)
        .filter((s) => s >= 400);
      expect(errors, key).toEqual(expect.arrayContaining(implied));
      expect(op.responses[400]?.content?.["application/problem+json"]?.examples, key).toHaveProperty(
        "unknownQueryParameter",
      );
      for (const status of errors) {
        // A plain JSON body monitors and load balancers read.
        if ((key === "GET /api/health" || key === "GET /api/health/ready") && status === 503) continue;
        const problem = op.responses[status]!.content?.["application/problem+json"];
        expect(componentOf(problem), `${key} ${status}`).toBe("Problem");
        expect(Object.keys(problem?.examples ?? {}).length, `${key} ${status}`).toBeGreaterThan(0);
      }
      if (op.responses[401]) expect(Object.keys(op.responses[401].headers ?? {}), key).toContain("WWW-Authenticate");
      if (op.responses[429]) expect(Object.keys(op.responses[429].headers ?? {}), key).toContain("Retry-After");
    }
  });

  it("documents the rate-limit headers on every shipping-API answer after authentication", () => {
    for (const { key, op } of operations.filter((o) => o.op.security?.some((s) => "ApiKeyHeader" in s))) {
      for (const [status, response] of Object.entries(op.responses)) {
        const names = Object.keys(response.headers ?? {});
        if (status === "401") expect(names, `${key} ${status}`).not.toContain("RateLimit-Limit");
        else
          expect(names, `${key} ${status}`).toEqual(
            expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
          );
      }
    }
  });

  it("has examples for every request body and every JSON answer", () => {
    for (const { key, op } of operations) {
      let count = 0;
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        expect(Object.keys(media.examples ?? {}).length, `${key} request ${type}`).toBeGreaterThan(0);
        count += 1;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type === "application/pdf") continue; // binary: nothing to show as an example
          expect(Object.keys(media.examples ?? {}).length, `${key} ${status} ${type}`).toBeGreaterThan(0);
          count += 1;
        }
      }
      expect(count, key).toBeGreaterThan(0);
    }
  });

  it("takes one order, a batch of at most 500, or either as application/json on validate and create", () => {
    for (const key of [
      "POST /api/v2/couriers/{courier_id}/shipping-orders/validate",
      "POST /api/v2/couriers/{courier_id}/shipping-orders",
    ]) {
      const body = operation(key).requestBody!;
      expect(body.required).toBe(true);
      expect(componentOf(body.content[SINGLE_ORDER_TYPE])).toBe("ShippingOrderRequest");
      expect(componentOf(body.content[ORDER_BATCH_TYPE])).toBe("ShippingOrderBatch");
      expect(componentOf(body.content["application/json"])).toBe("ShippingOrderRequestOrBatch");
    }
    expect(doc.components.schemas.ShippingOrderBatch?.maxItems).toBe(MAX_BATCH);
  });

  it("takes an Idempotency-Key on create", () => {
    const header = (operation("POST /api/v2/couriers/{courier_id}/shipping-orders").parameters ?? []).find(
      (p) => p.name === "Idempotency-Key",
    );
    expect(header).toMatchObject({ in: "header", required: false });
  });

  it("answers create's validation failures with the validation response, not a problem", () => {
    const bad = operation("POST /api/v2/couriers/{courier_id}/shipping-orders").responses[400]!;
    expect(componentOf(bad.content?.["application/json"])).toBe("ValidationResults");
    expect(componentOf(bad.content?.["application/problem+json"])).toBe("Problem");
  });

  it("serves labels as PDF or ZPL, chosen by ?format= (pdf-a6 by default), with a 400 naming format", () => {
    for (const key of ["GET /api/v2/shipping-orders/{id}/label", "GET /api/v2/labels"]) {
      expect(Object.keys(operation(key).responses[200]!.content ?? {}), key).toEqual([
        "application/pdf",
        "application/x-zpl",
      ]);
      const format = (operation(key).parameters ?? []).find((p) => p.name === "format");
      expect(format, key).toMatchObject({ in: "query", required: false });
      expect(format?.schema, key).toMatchObject({ enum: ["pdf-a6", "pdf-a4", "zpl"], default: "pdf-a6" });
      expect(operation(key).responses[400], key).toBeDefined();
    }
  });

  it("explains the repeated and comma forms of the list filters", () => {
    const params = operation("GET /api/v2/shipping-orders").parameters ?? [];
    const isArray = (p: (typeof params)[number]) => p.schema.anyOf?.some((s) => s.type === "array") ?? false;
    const arrays = params
      .filter(isArray)
      .map((p) => p.name)
      .sort();
    expect(arrays).toEqual(["courier", "courierProfile", "ids", "referenceNumbers", "shippingNumbers", "status"]);
    for (const p of params.filter(isArray)) {
      expect(p, p.name).toMatchObject({ in: "query", style: "form", explode: true });
      expect(p.description, p.name).toContain(`?${p.name}=a,b`);
    }
    expect(params.map((p) => p.name)).toEqual(
      expect.arrayContaining(["page", "pageSize", "createdFrom", "createdTo", "referenceSource", "sourceIdentifier"]),
    );
  });

  it("records the decisions where the contract is silent", () => {
    const text = doc.info.description;
    for (const phrase of [
      "itemsCount",
      "exactly one account",
      "403",
      "yyyy-MM-dd",
      "empty batch",
      "upper-cased",
      "profile",
      "codCurrencies",
      "absolute",
      "merge-patch+json",
      "rateLimitPerMinute",
      "CANCELLED",
      "COURIER_UNAVAILABLE",
    ]) {
      expect(text, phrase).toContain(phrase);
    }
  });

  it("has examples that the registered schemas accept, and problem examples shaped as the API shapes them", async () => {
    for (const { key, op } of operations) {
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        const schema = componentSchemas[componentOf(media)]!;
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          expect(schema.safeParse(example.value).success, `${key} request example ${name}`).toBe(true);
        }
      }
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type === "application/pdf" || type === ZPL_MEDIA_TYPE || type === "text/csv") continue; // files, not JSON
          const schema = componentSchemas[componentOf(media)]!;
          for (const [name, example] of Object.entries(media.examples ?? {})) {
            expect(schema.parse(example.value), `${key} ${status} example ${name}`).toEqual(example.value);
            if (type === "application/problem+json") {
              const real = (await problem(Number(status), "x").json()) as { title: string };
              expect(example.value, `${key} ${status} example ${name}`).toMatchObject({
                status: Number(status),
                title: real.title,
              });
            }
          }
        }
      }
    }
  });
});

describe("the document's JSON Schemas", () => {
  it("accept every example of every request body, answer and parameter", () => {
    let checked = 0;
    for (const { key, op } of operations) {
      const media: [string, MediaJson][] = [
        ...Object.entries(op.requestBody?.content ?? {}).map(
          ([type, m]) => [`request ${type}`, m] as [string, MediaJson],
        ),
        ...Object.entries(op.responses).flatMap(([status, r]) =>
          Object.entries(r.content ?? {}).map(([type, m]) => [`${status} ${type}`, m] as [string, MediaJson]),
        ),
      ];
      for (const [where, m] of media) {
        for (const [name, example] of Object.entries(m.examples ?? {})) {
          expect(schemaErrors(m.schema!, example.value), `${key} ${where} example ${name}`).toBe("");
          checked += 1;
        }
      }
      for (const p of op.parameters ?? []) {
        const example = p.example ?? p.schema.example;
        if (example === undefined) continue;
        expect(schemaErrors(p.schema, example), `${key} parameter ${p.name} example`).toBe("");
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("describe array query parameters so that both the repeated and the comma form validate", () => {
    const params = operation("GET /api/v2/shipping-orders").parameters ?? [];
    const ids = params.find((p) => p.name === "ids")!;
    expect(schemaErrors(ids.schema, ["99eaae0e-9af8-4583-90fd-b9de1c8f5840"])).toBe("");
    expect(schemaErrors(ids.schema, "99eaae0e-9af8-4583-90fd-b9de1c8f5840,07112afc-489b-4701-8a92-cdf6ef12de72")).toBe(
      "",
    );
    const labels = operation("GET /api/v2/labels").parameters ?? [];
    expect(schemaErrors(labels.find((p) => p.name === "shippingNumbers")!.schema, "SBX0000000001,SBX0000000002")).toBe(
      "",
    );
  });

  it("list application/json first among the order request media types", () => {
    for (const key of [
      "POST /api/v2/couriers/{courier_id}/shipping-orders/validate",
      "POST /api/v2/couriers/{courier_id}/shipping-orders",
    ]) {
      expect(Object.keys(operation(key).requestBody!.content)[0], key).toBe("application/json");
    }
  });

  it("describe a created order as ShippingOrder plus replaced (allOf), not a copy", () => {
    const items = doc.components.schemas.CreateShippingOrdersResponse!.properties!.items!.items!;
    expect(items.allOf?.[0]).toEqual({ $ref: "#/components/schemas/ShippingOrder" });
    expect(Object.keys(items.allOf?.[1]?.properties ?? {})).toEqual(["replaced"]);
  });

  it("give every time field of the answers a pattern of its format", () => {
    const order = doc.components.schemas.ShippingOrder!.properties!;
    const seconds = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$";
    expect(order.created!.pattern).toBe(seconds);
    const tracking = order.shipmentTracking!.properties!;
    expect(tracking.updated!.pattern ?? tracking.updated!.anyOf?.[0]?.pattern).toBe(seconds);
    expect(tracking.events!.items!.properties!.time!.pattern).toBe(seconds);
    expect(doc.components.schemas.ApiKey!.properties!.created!.pattern).toMatch(/\\\.\\d\{3\}\$$/);
  });

  it("document Recipient.Phone with the server's own pattern: the server accepts only what it matches", async () => {
    const recipient = doc.components.schemas.ShippingOrderRequest!.properties!.Recipient!.properties!;
    const pattern = new RegExp(recipient.Phone!.pattern ?? recipient.Phone!.anyOf![0]!.pattern!);
    expect(recipient.Phone!.description).toContain("E.164");
    const { validateOrder } = await import("@/server/services/shipping-orders/validate-order");
    const { sandboxCourier } = await import("@/server/couriers/sandbox");
    const base = order();
    // [phone, matches the pattern, accepted for a CZ recipient]: the pattern cannot know a country's numbering plan.
    for (const [phone, matches, accepted] of [
      ["+420 777 123 456", true, true],
      ["+420777123456", true, true],
      ["777 123 456", true, true],
      ["00420 777 123 456", true, true],
      ["+49 (30) 123-456", true, true],
      [" +4930123456 ", true, true],
      ["+1234567", true, false],
      ["123 456 789", true, false],
      ["+1234567890123456", true, false],
      ["777", false, false],
      ["+420 777 12a 456", false, false],
      ["++420777123456", false, false],
      ["+420.777.123.456", false, false],
    ] as const) {
      const result = validateOrder(
        { ...base, Recipient: { ...(base.Recipient as object), Phone: phone } },
        sandboxCourier.capabilities,
        { service: null },
      );
      const serverAccepts = !result.response.messages.some((m) => m.field === "Recipient.Phone");
      expect([pattern.test(phone), serverAccepts], JSON.stringify(phone)).toEqual([matches, accepted]);
    }
  });
});

describe("GET /api/v2/openapi.json", () => {
  const fetchDocument = () => getDocument(new Request("http://shop.test:8080/api/v2/openapi.json"));

  it("serves the document as JSON, with the platform's origin (PUBLIC_URL) as its server, whatever the request's Host", async () => {
    const first = await fetchDocument();
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json");
    const text = await first.text();
    const { servers, ...rest } = JSON.parse(text) as DocumentJson;
    // test/setup.ts sets PUBLIC_URL=http://localhost; the request came to shop.test:8080 (issue 29, item 4).
    expect(servers).toEqual([{ url: "http://localhost", description: "This server" }]);
    expect(rest).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(await (await fetchDocument()).text()).toBe(text);
  });

  it("refuses an unknown query parameter", async () => {
    const response = await getDocument(new Request("http://localhost/api/v2/openapi.json?format=yaml"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ field: "format" }] });
  });
});

describe("real answers match the schemas the document names", () => {
  let partner: Partner;
  let api: ReturnType<typeof as>;
  const params = { courier_id: "sandbox" };

  beforeAll(async () => {
    partner = await createPartner();
    api = as(partner);
  });

  /**
   * Parses a real answer with the zod schema the document names for its operation, status and media type
   * (nothing may be undocumented), and finds every header the document marks as always sent with that status.
   */
  async function expectDocumented(key: string, response: Response): Promise<unknown> {
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!;
    const documented = operation(key).responses[response.status];
    const media = documented?.content?.[type];
    expect(media, `${key} documents ${response.status} ${type}`).toBeDefined();
    for (const [name] of Object.entries(documented?.headers ?? {}).filter(([, header]) => header.required)) {
      expect(response.headers.has(name), `${key} ${response.status} header ${name}`).toBe(true);
    }
    const body: unknown = await response.json();
    expect(componentSchemas[componentOf(media)]!.parse(body)).toEqual(body);
    expect(schemaErrors(media!.schema!, body), `${key} ${response.status} against the document's JSON Schema`).toBe("");
    return body;
  }

  it("create, get and list answer as documented", async () => {
    const created = (await expectDocumented(
      "POST /api/v2/couriers/{courier_id}/shipping-orders",
      await api(createOrders, "/api/v2/couriers/sandbox/shipping-orders", {
        body: order({ CodPrice: 120, CodCurrency: "czk" }),
        params,
      }),
    )) as { items: { id: string }[] };
    const id = created.items[0]!.id;
    await expectDocumented(
      "GET /api/v2/shipping-orders/{id}",
      await api(getOrder, `/api/v2/shipping-orders/${id}`, { params: { id } }),
    );
    await expectDocumented(
      "GET /api/v2/shipping-orders",
      await api(listOrders, `/api/v2/shipping-orders?ids=${id}&status=CREATED,IN_TRANSIT`),
    );
  });

  it("a replayed create answers as documented", async () => {
    const key = "POST /api/v2/couriers/{courier_id}/shipping-orders";
    const send = (body: unknown) =>
      api(createOrders, "/api/v2/couriers/sandbox/shipping-orders", {
        body,
        params,
        headers: { "content-type": "application/json", "idempotency-key": "docs-replay-1" },
      });
    const first = order();
    const original = await expectDocumented(key, await send(first));
    const replay = await send(first);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectDocumented(key, replay)).toEqual(original);
    const reused = await send(order());
    expect(reused.status).toBe(422);
    await expectDocumented(key, reused);
  });

  it("a batch with a courier refusal answers as documented", async () => {
    const response = await api(createOrders, "/api/v2/couriers/sandbox/shipping-orders", {
      body: [order(), order({ ReferenceNumber: "COURIER-FAIL-7" })],
      headers: { "content-type": ORDER_BATCH_TYPE },
      params,
    });
    const body = (await expectDocumented("POST /api/v2/couriers/{courier_id}/shipping-orders", response)) as {
      failed: { code: string }[];
    };
    expect(body.failed.map((f) => f.code)).toEqual(["COURIER_REJECTED"]);
  });

  it("validate answers one result or an array as documented", async () => {
    const key = "POST /api/v2/couriers/{courier_id}/shipping-orders/validate";
    await expectDocumented(
      key,
      await api(validateOrders, "/api/v2/couriers/sandbox/shipping-orders/validate", { body: order(), params }),
    );
    const many = await expectDocumented(
      key,
      await api(validateOrders, "/api/v2/couriers/sandbox/shipping-orders/validate", {
        body: [order(), order({ Parcels: [{ Weight: 40 }] })],
        params,
      }),
    );
    expect(Array.isArray(many)).toBe(true);
  });

  it("create's 400 is the validation response; malformed input, 401 and 404 are problems", async () => {
    const invalid = await api(createOrders, "/api/v2/couriers/sandbox/shipping-orders", {
      body: order({ Recipient: { Name: "", Street: "x", City: "y", Zip: "1", Country: "CZ" } }),
      params,
    });
    expect(invalid.status).toBe(400);
    expect(await expectDocumented("POST /api/v2/couriers/{courier_id}/shipping-orders", invalid)).toMatchObject({
      status: "ERROR",
    });

    const empty = await api(createOrders, "/api/v2/couriers/sandbox/shipping-orders", { body: [], params });
    expect(empty.headers.get("content-type")).toBe("application/problem+json");
    await expectDocumented("POST /api/v2/couriers/{courier_id}/shipping-orders", empty);

    const unknownCourier = await api(validateOrders, "/api/v2/couriers/nope/shipping-orders/validate", {
      body: order(),
      params: { courier_id: "nope" },
    });
    expect(unknownCourier.status).toBe(404);
    await expectDocumented("POST /api/v2/couriers/{courier_id}/shipping-orders/validate", unknownCourier);

    const missing = await api(getOrder, "/api/v2/shipping-orders/not-a-uuid", { params: { id: "not-a-uuid" } });
    expect(missing.status).toBe(404);
    await expectDocumented("GET /api/v2/shipping-orders/{id}", missing);

    const badFilter = await api(listOrders, "/api/v2/shipping-orders?status=LOST");
    expect(badFilter.status).toBe(400);
    await expectDocumented("GET /api/v2/shipping-orders", badFilter);

    const anonymous = await call(listCouriers, "/api/v2/couriers");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    await expectDocumented("GET /api/v2/couriers", anonymous);
  });

  it("configurations and the private API answer as documented", async () => {
    await expectDocumented("GET /api/v2/couriers", await api(listCouriers, "/api/v2/couriers"));
    await expectDocumented(
      "GET /api/v2/private/api-keys",
      await call(listApiKeys, "/api/v2/private/api-keys", { token: partner.token }),
    );
    const withKey = await call(listApiKeys, "/api/v2/private/api-keys", { token: partner.key });
    expect(withKey.status).toBe(401);
    await expectDocumented("GET /api/v2/private/api-keys", withKey);
  });
});
