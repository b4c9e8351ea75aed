import { describe, expect, it } from "vitest";
import { limiterPerCredential } from "./profile-limiter";

/** A call that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("limiterPerCredential", () => {
  it("lets at most `inFlight` calls of one credential run at once, and others' calls beside them", async () => {
    const limitOf = limiterPerCredential(2);
    let running = 0;
    let most = 0;
    const gates = Array.from({ length: 5 }, gate);
    const calls = gates.map((g) =>
      limitOf("password-a")(async () => {
        running++;
        most = Math.max(most, running);
        await g.opened;
        running--;
      }),
    );
    const other = gate();
    const beside = limitOf("password-b")(() => other.opened);
    await Promise.resolve();
    expect(running).toBe(2);
    for (const g of gates) g.open();
    other.open();
    await Promise.all([...calls, beside]);
    expect(most).toBe(2);
  });

  it("keeps an entry only while its credential has calls in flight or waiting: the map shrinks when they end", async () => {
    const limitOf = limiterPerCredential(8);
    const gates = Array.from({ length: 1000 }, gate);
    const calls = gates.map((g, i) => limitOf(`password-${i}`)(() => g.opened));
    expect(limitOf.size).toBe(1000);
    for (const g of gates.slice(0, 600)) g.open();
    await Promise.all(calls.slice(0, 600));
    expect(limitOf.size).toBe(400);
    for (const g of gates.slice(600)) g.open();
    await Promise.all(calls);
    expect(limitOf.size).toBe(0);
    // A failed call ends its entry too, and a credential seen again starts afresh.
    await expect(limitOf("password-x")(() => Promise.reject(new Error("courier down")))).rejects.toThrow();
    expect(limitOf.size).toBe(0);
    await expect(limitOf("password-0")(() => "again")).resolves.toBe("again");
    expect(limitOf.size).toBe(0);
  });
});
