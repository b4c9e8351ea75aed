import { eq, NoopLogger } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { pickupPointSyncs } from "@/db/schema/pickup-points";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { call, readJson } from "@/test/helpers";
import { createPartner } from "@/test/partner";
import { runOnOwnDatabase } from "@/test/own-database";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { GET } from "./route";

// It marks couriers' directories synced: in the run's shared database that would make every other file's made-up
// PickupPoint unknown.
await runOnOwnDatabase();

type Item = { id: string; pickupPoints: { count: number; syncedAt: string | null } | null };

describe("GET /api/v2/couriers", () => {
  it("gives each courier with points the open points its feeds' syncs counted and its last complete sync, null for the sandbox", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: 50, seed: 991 }));
    const older = new Date("2026-11-27T03:05:00.000Z");
    const newer = new Date("2026-11-27T03:20:00.000Z");
    for (const [feed, at, open] of [
      ["packeta-points", older, 31],
      ["packeta-boxes", newer, 12],
    ] as const)
      await db
        .insert(pickupPointSyncs)
        .values({ feed, courier: "packeta", lastSuccessAt: at, lastOpenCount: open })
        .onConflictDoUpdate({ target: pickupPointSyncs.feed, set: { lastSuccessAt: at, lastOpenCount: open } });
    await db.delete(pickupPointSyncs).where(eq(pickupPointSyncs.feed, "ppl-access-points"));

    const statements: string[] = [];
    const spy = vi
      .spyOn(NoopLogger.prototype as { logQuery(query: string): void }, "logQuery")
      .mockImplementation((query: string) => {
        statements.push(query);
      });
    let response: Response;
    try {
      response = await call(GET, "/api/v2/couriers", { token: partner.key });
    } finally {
      spy.mockRestore();
    }
    expect(response.status).toBe(200);
    // The directory itself is never read, let alone counted, by a call.
    expect(statements.filter((q) => /"pickup_points"/.test(q))).toEqual([]);
    const { items } = await readJson<{ items: Item[] }>(response);
    expect(items.find((c) => c.id === "sandbox")!.pickupPoints).toBeNull();
    // The sum of its point feeds' counts, and the older of their syncs: the directory is only as fresh as that.
    expect(items.find((c) => c.id === "packeta")!.pickupPoints).toEqual({
      count: 43,
      syncedAt: older.toISOString().slice(0, 23),
    });
    expect(JSON.stringify(items)).not.toMatch(/"syncedAt":"[^"]*Z"/);
    // Never synced: no count and no time, whatever points a test put there.
    expect(items.find((c) => c.id === "ppl")!.pickupPoints).toEqual({ count: 0, syncedAt: null });
  });
});
