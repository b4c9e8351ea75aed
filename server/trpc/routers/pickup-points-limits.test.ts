import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { REQUEST_COSTS } from "@/server/services/rate-limits/request-costs";
import { createTRPCContext } from "@/server/trpc/init";
import { trpcResponseMeta } from "@/server/trpc/response-meta";
import { appRouter } from "@/server/trpc/root";
import { TRPC_MAX_BATCH_SIZE } from "@/lib/trpc-batch";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { createPartner, type Partner } from "@/test/partner";
import { codeOf, callerFor, sessionOf } from "@/test/trpc";

// A user's limit of two searches and a bit, set before the environment is first read in this process.
const USER_LIMIT = 2 * REQUEST_COSTS.pickupPointSearch + 1;
vi.hoisted(() => {
  process.env.USER_RATE_LIMIT_PER_MINUTE = "11";
});

// Buckets refill with the app's clock: stopped here, and moved a minute on to fill them again.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
});
afterEach(() => {
  vi.useRealTimers();
});
const aMinuteLater = () => vi.setSystemTime(Date.now() + 60_000);

describe("tRPC pickupPoints.search under the dashboard's limits", () => {
  let partner: Partner;
  beforeAll(async () => {
    expect(Number(process.env.USER_RATE_LIMIT_PER_MINUTE)).toBe(USER_LIMIT);
    await insertDirectoryPoints(await getDb(), syntheticPoints({ courier: "ppl", count: 500 }));
  });
  // A user of each test's own: the clock starts again at each test, and a bucket's time never goes back.
  beforeEach(async () => {
    partner = await createPartner();
  });

  it("charges each search its cost against the user: past the limit, TOO_MANY_REQUESTS", async () => {
    const api = await callerFor(partner);
    const search = () => api.pickupPoints.search({ accountId: partner.accountId, courier: "ppl", q: "plzen" });
    expect(await codeOf(search())).toBe("resolved");
    expect(await codeOf(search())).toBe("resolved");
    expect(await codeOf(search())).toBe("TOO_MANY_REQUESTS");
    aMinuteLater();
    expect(await codeOf(search())).toBe("resolved");
  });

  it("charges every call of a batch: a full batch gets its first searches answered and the rest refused", async () => {
    const calls = Array.from({ length: TRPC_MAX_BATCH_SIZE }, () => "pickupPoints.search").join(",");
    const input = Object.fromEntries(
      Array.from({ length: TRPC_MAX_BATCH_SIZE }, (_, i) => [
        String(i),
        { json: { accountId: partner.accountId, courier: "ppl", q: "plzen" } },
      ]),
    );
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request(`http://localhost/api/trpc/${calls}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`),
      router: appRouter,
      createContext: () => createTRPCContext({ session: sessionOf(partner), headers: new Headers() }),
      responseMeta: trpcResponseMeta,
    });
    const answers = (await response.json()) as { result?: unknown; error?: { json: { data: { code: string } } } }[];
    expect(answers).toHaveLength(TRPC_MAX_BATCH_SIZE);
    expect(answers.filter((a) => a.result).length).toBe(2);
    expect(answers.filter((a) => a.error?.json.data.code === "TOO_MANY_REQUESTS").length).toBe(TRPC_MAX_BATCH_SIZE - 2);
  });

  it("refuses a search the service bounds, naming the field, without charging it", async () => {
    const api = await callerFor(partner);
    // Nine different words: refused before the search runs (a page past the matches is known only after its count,
    // and is charged as the search it was).
    const tooManyWords = await codeOf(
      api.pickupPoints.search({
        accountId: partner.accountId,
        courier: "ppl",
        q: "alpha bravo charlie delta echo foxtrot golf hotel india",
      }),
    );
    expect(tooManyWords).toBe("BAD_REQUEST");
    const sandbox = await codeOf(api.pickupPoints.search({ accountId: partner.accountId, courier: "sandbox" }));
    expect(sandbox).toBe("NOT_FOUND");
    // Neither took a search's tokens: two searches still fit.
    for (let i = 0; i < 2; i++)
      expect(await codeOf(api.pickupPoints.search({ accountId: partner.accountId, courier: "ppl" }))).toBe("resolved");
  });
});
