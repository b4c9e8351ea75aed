import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as endpointItem from "@/app/api/v2/private/webhook-endpoints/[id]/route";
import * as endpoints from "@/app/api/v2/private/webhook-endpoints/route";
import { getDb } from "@/db/client";
import { ORDER_EVENT_TYPES } from "@/lib/event-types";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { call, createTestUser, type TestUser } from "@/test/helpers";
import { accountDigest } from "@/test/account-digest";
import { expectProblem } from "@/test/expect-answers";
import { countCase, newFigures, printFigures } from "@/test/figures";
import {
  describeRequest,
  fuzzTimeout,
  headersOf,
  mutated,
  nastyValue,
  runs,
  wire,
  type Path,
  type Wire,
} from "@/test/fuzz";

/**
 * Property-based fuzz of the webhook endpoint bodies: POST /private/webhook-endpoints and PATCH
 * /private/webhook-endpoints/{id}, valid, mutated and arbitrary. Never a 5xx; a 4xx is a problem and changes
 * none of the account's rows (nor ever another account's); a 201 adds exactly one endpoint. Production rules
 * (no private targets), with public IP literals so no case waits on DNS.
 */

const figures = newFigures();
const RUNS = { create: runs(160), patch: runs(160) };

const JSON_TYPES = fc.oneof(
  { weight: 9, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/merge-patch+json", "") },
  { weight: 1, arbitrary: fc.constant(null) },
);

const url = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "https://93.184.216.34/hooks",
      "https://8.8.8.8:8443/x?y=1",
      "https://[2606:4700::1111]/",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "http://93.184.216.34/",
      "https://127.0.0.1/",
      "https://10.0.0.1/",
      "https://[::1]/",
      "https://169.254.169.254/",
      "https://localhost/",
      "https://u:p@8.8.8.8/",
      "javascript:alert(1)",
      "https://",
      `https://8.8.8.8/${"a".repeat(2100)}`,
    ),
  },
  { weight: 1, arbitrary: fc.webUrl() },
);
const pair = fc.record({
  referenceSource: fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom("api", " ", "x".repeat(101))),
  sourceIdentifier: fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom("default", "")),
});
const fields = {
  url,
  description: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null), fc.constant("d".repeat(501))),
  eventTypes: fc.array(fc.oneof(fc.constantFrom(...ORDER_EVENT_TYPES), fc.constant("webhook.test")), { maxLength: 5 }),
  sources: fc.oneof(fc.array(pair, { maxLength: 3 }), fc.constant(null)),
};

describe("fuzz: webhook endpoints", () => {
  let owner: TestUser;
  let other: TestUser;
  let endpointId: string;
  beforeAll(async () => {
    owner = await createTestUser();
    other = await createTestUser();
    endpointId = (
      await createWebhookEndpoint(
        await getDb(),
        { userId: owner.userId, isStaff: false },
        { accountId: owner.accountId, url: "https://93.184.216.34/own" },
      )
    ).id;
  });
  afterAll(() => printFigures("fuzz webhook endpoints", figures));

  async function exercise(
    handler: unknown,
    method: string,
    path: string,
    w: Wire,
    options: { created: boolean; params?: Record<string, string>; successStatus: number },
  ): Promise<void> {
    const [mineBefore, theirsBefore] = await Promise.all([
      accountDigest(owner.accountId),
      accountDigest(other.accountId),
    ]);
    const context = describeRequest(method, path, w);
    const response = await call(handler, path, {
      method,
      token: owner.token,
      rawBody: w.raw,
      headers: headersOf(w),
      params: options.params,
    });
    countCase(figures, response);
    expect(response.status, context).toBeLessThan(500);
    const [mineAfter, theirsAfter] = await Promise.all([
      accountDigest(owner.accountId),
      accountDigest(other.accountId),
    ]);
    expect(theirsAfter, context).toEqual(theirsBefore);
    if (response.status === options.successStatus) {
      expect(response.headers.get("content-type"), context).toBe("application/json");
      if (options.created) expect(mineAfter.webhookEndpoints - mineBefore.webhookEndpoints, context).toBe(1);
      return;
    }
    await expectProblem(response, context);
    expect(mineAfter, context).toEqual(mineBefore);
  }

  it(`POST /private/webhook-endpoints (${RUNS.create} cases)`, { timeout: fuzzTimeout(RUNS.create) }, async () => {
    const valid = fc.record(
      {
        accountId: fc.oneof(
          { weight: 8, arbitrary: fc.constant(owner.accountId) },
          { weight: 1, arbitrary: fc.constant(other.accountId) },
          { weight: 1, arbitrary: fc.uuid() },
        ),
        ...fields,
      },
      { requiredKeys: ["url"] },
    );
    const paths: Path[] = [
      [],
      ["accountId"],
      ["url"],
      ["description"],
      ["eventTypes"],
      ["eventTypes", 0],
      ["sources"],
      ["sources", 0],
      ["sources", 0, "referenceSource"],
    ];
    const body = fc.oneof(
      { weight: 4, arbitrary: mutated(valid, paths) },
      { weight: 2, arbitrary: valid },
      { weight: 1, arbitrary: nastyValue },
    );
    await fc.assert(
      fc.asyncProperty(wire(body, JSON_TYPES), (w) =>
        exercise(endpoints.POST, "POST", "/api/v2/private/webhook-endpoints", w, { created: true, successStatus: 201 }),
      ),
      { numRuns: RUNS.create },
    );
  });

  it(`PATCH /private/webhook-endpoints/{id} (${RUNS.patch} cases)`, { timeout: fuzzTimeout(RUNS.patch) }, async () => {
    const valid = fc.record({ ...fields, enabled: fc.boolean() }, { requiredKeys: [] });
    const paths: Path[] = [
      [],
      ["url"],
      ["description"],
      ["eventTypes"],
      ["eventTypes", 0],
      ["sources"],
      ["sources", 0],
      ["enabled"],
    ];
    const body = fc.oneof(
      { weight: 4, arbitrary: mutated(valid, paths) },
      { weight: 2, arbitrary: valid },
      { weight: 1, arbitrary: nastyValue },
    );
    const path = `/api/v2/private/webhook-endpoints/${endpointId}`;
    await fc.assert(
      fc.asyncProperty(wire(body, JSON_TYPES), (w) =>
        exercise(endpointItem.PATCH, "PATCH", path, w, {
          created: false,
          params: { id: endpointId },
          successStatus: 200,
        }),
      ),
      { numRuns: RUNS.patch },
    );
  });
});
