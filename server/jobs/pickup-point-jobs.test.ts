import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { pickupPoints, pickupPointSyncs } from "@/db/schema/pickup-points";
import { startFakePacketaFeed, type FakePacketaFeed } from "@/server/couriers/packeta/fake-feed-server";
import { pollUntil } from "@/test/helpers";
import { ownDatabase } from "@/test/own-database";
import { pickupPointQueue } from "@/server/queue/queues";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "./worker";

const KEY = "abcdef0123456789";
let db: Db;
let close: () => Promise<void>;
let feed: FakePacketaFeed;
let worker: RunningWorker;

beforeAll(async () => {
  ({ db, close } = await ownDatabase());
  feed = await startFakePacketaFeed({ apiKey: KEY, count: 400, seed: 3 });
  // Packeta's directory configured, PPL's not.
  process.env.PACKETA_API_KEY = KEY;
  process.env.PACKETA_FEED_URL = feed.url;
  delete process.env.PPL_DIRECTORY_CLIENT_ID;
  delete process.env.PPL_DIRECTORY_CLIENT_SECRET;
  worker = await startWorker(db, { ...workerOptionsFromEnv(), pollingSeconds: 0.5, maintenanceSeconds: 1 });
});
afterAll(async () => {
  await worker?.stop();
  delete process.env.PACKETA_API_KEY;
  delete process.env.PACKETA_FEED_URL;
  await feed?.close();
  await close?.();
});

describe("pickup-point sync jobs", () => {
  it("syncs a configured courier's feeds when the worker starts on a fresh database", async () => {
    const synced = await pollUntil(
      () => db.select().from(pickupPointSyncs),
      (rows) =>
        ["packeta-points", "packeta-boxes", "packeta-carriers"].every((f) =>
          rows.some((r) => r.feed === f && r.lastSuccessAt),
        ),
      { timeoutMs: 60_000 },
    );
    expect(synced.map((r) => r.feed).sort()).toEqual(["packeta-boxes", "packeta-carriers", "packeta-points"]);
    expect(await db.$count(pickupPoints, eq(pickupPoints.courier, "packeta"))).toBe(400);
  });

  it("completes a job for a courier without credentials without syncing anything", async () => {
    const id = await worker.boss.send(pickupPointQueue("ppl-access-points"), {});
    expect(id).toBeTruthy();
    const job = await pollUntil(
      () => worker.boss.getJobById(pickupPointQueue("ppl-access-points"), id!),
      (j) => j?.state === "completed" || j?.state === "failed",
      { timeoutMs: 30_000 },
    );
    expect(job?.state).toBe("completed");
    expect(await db.select().from(pickupPointSyncs).where(eq(pickupPointSyncs.feed, "ppl-access-points"))).toEqual([]);
  });
});
