import { describe, expect, it } from "vitest";
import { nextPoll, retryPoll } from "./tracking-schedule";

const now = new Date("2026-11-26T12:00:00Z");
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
const inMinutes = (d: Date | null) => (d === null ? null : (d.getTime() - now.getTime()) / 60_000);

describe("the tracking schedule of a real courier", () => {
  it("stops at a final state", () => {
    for (const status of ["DELIVERED", "RETURNED", "CANCELLED"] as const)
      expect(nextPoll(status, { events: [], nextCheckAt: null }, minutesAgo(5), now)).toBeNull();
  });

  it("asks soon after a move and backs off the longer a shipment sits, sooner while it moves", () => {
    const moving = (sat: number) => inMinutes(nextPoll("IN_TRANSIT", null, minutesAgo(sat), now));
    const waiting = (sat: number) => inMinutes(nextPoll("CREATED", null, minutesAgo(sat), now));
    expect(moving(0)).toBe(1);
    expect(moving(20)).toBe(5);
    expect(moving(60)).toBe(15);
    expect(moving(24 * 60)).toBe(30);
    expect(waiting(24 * 60)).toBe(120);
    expect(waiting(60)).toBe(moving(60));
  });

  it("follows the adapter's own next step when it names one (the sandbox)", () => {
    const step = new Date(now.getTime() + 7 * 60_000);
    expect(nextPoll("HANDED_OVER", { events: [], nextCheckAt: step }, minutesAgo(100), now)).toEqual(step);
  });

  it("retries a failed poll after a minute, doubling to an hour", () => {
    expect([1, 2, 3, 4, 7, 20].map((f) => inMinutes(retryPoll(f, now)))).toEqual([1, 2, 4, 8, 60, 60]);
  });
});
