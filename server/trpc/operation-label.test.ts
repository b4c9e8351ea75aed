import { describe, expect, it } from "vitest";
import { trpcOperation } from "./operation-label";

describe("trpcOperation (the `operation` label of a tRPC request)", () => {
  it("names an existing procedure, and a batch of several by one label", () => {
    expect(trpcOperation("/api/trpc/shippingOrders.list")).toBe("trpc:shippingOrders.list");
    expect(trpcOperation("/api/trpc/accounts.mine,accounts.mine")).toBe("trpc:accounts.mine");
    expect(trpcOperation("/api/trpc/accounts.mine,shippingOrders.list")).toBe("trpc:batch");
  });

  it("is `unknown` for any name the router does not have, so made-up paths add no label values", () => {
    const labels = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      labels.add(trpcOperation(`/api/trpc/made.up${i}`));
      labels.add(trpcOperation(`/api/trpc/accounts.mine,made.up${i}`));
    }
    labels.add(trpcOperation("/api/trpc/%E2"));
    labels.add(trpcOperation("/api/trpc/"));
    labels.add(trpcOperation("/api/trpc/__proto__"));
    labels.add(trpcOperation("/api/trpc/shippingOrders"));
    expect([...labels]).toEqual(["unknown"]);
  });
});
