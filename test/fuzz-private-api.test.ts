import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as token from "@/app/api/v2/auth/token/route";
import * as apiKeyItem from "@/app/api/v2/private/api-keys/[id]/route";
import * as apiKeys from "@/app/api/v2/private/api-keys/route";
import * as courierProfiles from "@/app/api/v2/private/courier-profiles/route";
import * as sources from "@/app/api/v2/private/sources/route";
import { getDb } from "@/db/client";
import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { revokeApiKey } from "@/server/services/api-keys/revoke-api-key";
import { call, createTestUser, type TestUser } from "@/test/helpers";
import { accountDigest, type AccountDigest } from "@/test/account-digest";
import { expectProblem } from "@/test/expect-answers";
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

/**
 * Property-based fuzz of the private API and of sign-in: arbitrary and mutated bodies for POST
 * /private/api-keys, /private/sources, /private/courier-profiles, PATCH /private/api-keys/{id} and POST
 * /auth/token, and arbitrary queries for GET /private/api-keys. Properties: never a 5xx; a 4xx is a problem
 * document whose `status` is the HTTP status; a 4xx changes none of the account's rows (and no request ever
 * changes another account's rows); a 201 adds exactly one row.
 */

const figures = newFigures();
const RUNS = {
  keys: runs(160),
  sources: runs(160),
  profiles: runs(160),
  patch: runs(160),
  listKeys: runs(100),
  token: runs(120),
};

const JSON_TYPES = fc.oneof(
  { weight: 9, arbitrary: fc.constant("application/json") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "text/plain",
      "application/merge-patch+json",
      "",
      "application/x-www-form-urlencoded",
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

const shortName = fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).filter((s) => s.trim().length > 0);

/** An accountId as a confused or malicious client sends it. */
function accountIdOf(own: string, other: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(own) },
    { weight: 1, arbitrary: fc.constant(other) },
    { weight: 1, arbitrary: fc.uuid() },
  );
}

type Counted = keyof Pick<AccountDigest, "apiKeys" | "sources" | "courierProfiles">;

describe("fuzz: private API and sign-in", () => {
  let owner: TestUser;
  let other: TestUser;
  let otherKeyId: string;
  let ownKeyIds: string[];
  let revokedKeyId: string;
  beforeAll(async () => {
    owner = await createTestUser();
    other = await createTestUser();
    const db = await getDb();
    const actor = { userId: owner.userId, isStaff: false };
    ownKeyIds = [
      (await createApiKey(db, actor, { accountId: owner.accountId, name: "one" })).id,
      (await createApiKey(db, actor, { accountId: owner.accountId, name: "two" })).id,
    ];
    revokedKeyId = (await createApiKey(db, actor, { accountId: owner.accountId, name: "revoked" })).id;
    await revokeApiKey(db, actor, revokedKeyId);
    otherKeyId = (
      await createApiKey(db, { userId: other.userId, isStaff: false }, { accountId: other.accountId, name: "theirs" })
    ).id;
  });
  afterAll(() => printFigures("fuzz private API and sign-in", figures));

  /** Sends, then checks the answer and the rows of both accounts against what the status allows. */
  async function exercise(
    handler: unknown,
    method: string,
    path: string,
    w: Wire,
    options: { created?: Counted; params?: Record<string, string>; successStatus: number },
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
      if (options.created) expect(mineAfter[options.created] - mineBefore[options.created], context).toBe(1);
      return;
    }
    await expectProblem(response, context);
    expect(mineAfter, context).toEqual(mineBefore);
  }

  it(`POST /private/api-keys (${RUNS.keys} cases)`, { timeout: fuzzTimeout(RUNS.keys) }, async () => {
    const valid = fc.record(
      {
        accountId: accountIdOf(owner.accountId, other.accountId),
        name: shortName,
        preventDuplicateOrders: fc.boolean(),
        permissions: fc.subarray([...API_KEY_PERMISSIONS]),
        rateLimitPerMinute: fc.integer({ min: 1, max: 100_000 }),
      },
      { requiredKeys: ["name"] },
    );
    const paths: Path[] = [
      [],
      ["accountId"],
      ["name"],
      ["preventDuplicateOrders"],
      ["permissions"],
      ["permissions", 0],
      ["rateLimitPerMinute"],
    ];
    const body = fc.oneof(
      { weight: 4, arbitrary: mutated(valid, paths) },
      { weight: 1, arbitrary: valid },
      { weight: 1, arbitrary: nastyValue },
    );
    await fc.assert(
      fc.asyncProperty(wire(body, JSON_TYPES), (w) =>
        exercise(apiKeys.POST, "POST", "/api/v2/private/api-keys", w, { created: "apiKeys", successStatus: 201 }),
      ),
      { numRuns: RUNS.keys },
    );
  });

  it(`POST /private/sources (${RUNS.sources} cases)`, { timeout: fuzzTimeout(RUNS.sources) }, async () => {
    const part = fc.oneof(
      fc.stringMatching(/^[a-z]{1,6}$/),
      fc.constantFrom("api", "default", "API", " shop ", "x".repeat(64), "x".repeat(65)),
    );
    const valid = fc.record(
      {
        accountId: accountIdOf(owner.accountId, other.accountId),
        referenceSource: part,
        sourceIdentifier: part,
        name: fc.oneof(shortName, fc.constant("")),
      },
      { requiredKeys: ["referenceSource", "sourceIdentifier"] },
    );
    const paths: Path[] = [[], ["accountId"], ["referenceSource"], ["sourceIdentifier"], ["name"]];
    const body = fc.oneof(
      { weight: 4, arbitrary: mutated(valid, paths) },
      { weight: 1, arbitrary: valid },
      { weight: 1, arbitrary: nastyValue },
    );
    await fc.assert(
      fc.asyncProperty(wire(body, JSON_TYPES), (w) =>
        exercise(sources.POST, "POST", "/api/v2/private/sources", w, { created: "sources", successStatus: 201 }),
      ),
      { numRuns: RUNS.sources },
    );
  });

  it(`POST /private/courier-profiles (${RUNS.profiles} cases)`, { timeout: fuzzTimeout(RUNS.profiles) }, async () => {
    const valid = fc.record(
      {
        accountId: accountIdOf(owner.accountId, other.accountId),
        courier: fc.oneof(
          { weight: 5, arbitrary: fc.constant("sandbox") },
          { weight: 1, arbitrary: fc.constantFrom("Sandbox", "acme", "__proto__", "hasOwnProperty") },
        ),
        name: shortName,
        service: fc.constantFrom("STANDARD", "EXPRESS", "PICKUP_POINT", null, "OVERNIGHT"),
        isDefault: fc.boolean(),
        settings: fc.record(
          { timeoutMs: fc.integer({ min: 1, max: 120_000 }), trackingStepMinutes: fc.integer({ min: 1, max: 10_080 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ["courier", "name"] },
    );
    const paths: Path[] = [
      [],
      ["accountId"],
      ["courier"],
      ["name"],
      ["service"],
      ["isDefault"],
      ["settings"],
      ["settings", "timeoutMs"],
      ["settings", "trackingStepMinutes"],
    ];
    const body = fc.oneof(
      { weight: 4, arbitrary: mutated(valid, paths) },
      { weight: 1, arbitrary: valid },
      { weight: 1, arbitrary: nastyValue },
    );
    await fc.assert(
      fc.asyncProperty(wire(body, JSON_TYPES), (w) =>
        exercise(courierProfiles.POST, "POST", "/api/v2/private/courier-profiles", w, {
          created: "courierProfiles",
          successStatus: 201,
        }),
      ),
      { numRuns: RUNS.profiles },
    );
  });

  it(`PATCH /private/api-keys/{id} (${RUNS.patch} cases)`, { timeout: fuzzTimeout(RUNS.patch) }, async () => {
    const valid = fc.record(
      {
        name: shortName,
        preventDuplicateOrders: fc.boolean(),
        permissions: fc.subarray([...API_KEY_PERMISSIONS]),
        rateLimitPerMinute: fc.integer({ min: 1, max: 100_000 }),
      },
      { requiredKeys: [] },
    );
    const paths: Path[] = [
      [],
      ["name"],
      ["preventDuplicateOrders"],
      ["permissions"],
      ["permissions", 0],
      ["rateLimitPerMinute"],
    ];
    const body = fc.oneof(
      { weight: 4, arbitrary: mutated(valid, paths) },
      { weight: 1, arbitrary: valid },
      { weight: 1, arbitrary: nastyValue },
    );
    const id = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ownKeyIds) },
      { weight: 1, arbitrary: fc.constant(otherKeyId) },
      { weight: 1, arbitrary: fc.constant(revokedKeyId) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: nastyString },
    );
    const types = fc.oneof(
      { weight: 4, arbitrary: JSON_TYPES },
      { weight: 1, arbitrary: fc.constant("application/merge-patch+json") },
    );
    await fc.assert(
      fc.asyncProperty(wire(body, types), id, (w, keyId) =>
        exercise(apiKeyItem.PATCH, "PATCH", `/api/v2/private/api-keys/${encodeURIComponent(keyId.toWellFormed())}`, w, {
          params: { id: keyId },
          successStatus: 200,
        }),
      ),
      { numRuns: RUNS.patch },
    );
  });

  it(
    `GET /private/api-keys with arbitrary queries (${RUNS.listKeys} cases)`,
    { timeout: fuzzTimeout(RUNS.listKeys) },
    async () => {
      const value = fc.oneof(
        fc.constantFrom(owner.accountId, other.accountId, "1", "0", "50", "51", "-1", "1.5", "999999999", ""),
        fc.uuid(),
        nastyString,
      );
      const pair = fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom("accountId", "page", "pageSize") },
          { weight: 1, arbitrary: nastyString },
        ),
        value,
      );
      await fc.assert(
        fc.asyncProperty(fc.array(pair, { maxLength: 4 }), async (pairs) => {
          const path = `/api/v2/private/api-keys?${new URLSearchParams(pairs.map(([k, v]) => [k.toWellFormed(), v.toWellFormed()]))}`;
          const before = await accountDigest(owner.accountId);
          const response = await call(apiKeys.GET, path, { token: owner.token });
          countCase(figures, response);
          const context = describeRequest("GET", path);
          expect(response.status, context).toBeLessThan(500);
          if (response.status === 200) {
            const page = (await response.json()) as { items: unknown[]; pageSize: number };
            expect(page.items.length, context).toBeLessThanOrEqual(page.pageSize);
          } else {
            await expectProblem(response, context);
          }
          expect(await accountDigest(owner.accountId), context).toEqual(before);
        }),
        { numRuns: RUNS.listKeys },
      );
    },
  );

  it(
    `POST /auth/token with arbitrary bodies and random emails (${RUNS.token} cases)`,
    { timeout: fuzzTimeout(RUNS.token) },
    async () => {
      // Sign-in is throttled per email (10 a minute): random emails keep the fuzz from measuring the throttle.
      const email = fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: nastyString },
        { weight: 1, arbitrary: fc.constant(owner.email.toUpperCase()) },
      );
      const valid = fc.record({
        email,
        password: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(owner.password.toUpperCase())),
      });
      const paths: Path[] = [[], ["email"], ["password"]];
      const body = fc
        .oneof({ weight: 4, arbitrary: mutated(valid, paths) }, { weight: 1, arbitrary: nastyValue })
        .map((b) => {
          // Each case gets its own address unless the mutation put something else there.
          if (typeof b === "object" && b !== null && !Array.isArray(b) && (b as { email?: unknown }).email === null) {
            return { ...b, email: `fuzz-${randomUUID()}@test.example` };
          }
          return b;
        });
      await fc.assert(
        fc.asyncProperty(wire(body, JSON_TYPES), async (w) => {
          const response = await call(token.POST, "/api/v2/auth/token", {
            method: "POST",
            rawBody: w.raw,
            headers: headersOf(w),
          });
          countCase(figures, response);
          const context = describeRequest("POST", "/api/v2/auth/token", w);
          expect(response.status, context).toBeLessThan(500);
          expect(response.status, `${context}: no fuzzed body knows the password`).not.toBe(200);
          await expectProblem(response, context);
        }),
        { numRuns: RUNS.token },
      );
    },
  );
});
