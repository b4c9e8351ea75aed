import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { callerFor, failure, suiteUsers } from "@/test/trpc";

describe("tRPC sources", () => {
  const users = suiteUsers();

  it("activates, lists and deactivates a pair", async () => {
    const api = await callerFor(users.owner);
    const source = await api.sources.activate({
      accountId: users.owner.accountId,
      referenceSource: "eshop",
      sourceIdentifier: "cz",
      name: "Czech shop",
    });
    expect((await api.sources.list({ accountId: users.owner.accountId })).items).toContainEqual(source);
    await api.sources.deactivate({ id: source.id });
    expect((await api.sources.list({ accountId: users.owner.accountId })).items).not.toContainEqual(source);
  });

  it("answers NOT_FOUND for another account's sources", async () => {
    const source = await (
      await callerFor(users.owner)
    ).sources.activate({ accountId: users.owner.accountId, referenceSource: "erp", sourceIdentifier: "main" });
    const api = await callerFor(users.stranger);
    expect((await failure(api.sources.list({ accountId: users.owner.accountId }))).code).toBe("NOT_FOUND");
    expect(
      (
        await failure(
          api.sources.activate({ accountId: users.owner.accountId, referenceSource: "x", sourceIdentifier: "y" }),
        )
      ).code,
    ).toBe("NOT_FOUND");
    expect((await failure(api.sources.deactivate({ id: source.id }))).code).toBe("NOT_FOUND");
  });

  it("lets staff list any account's sources", async () => {
    const source = await (
      await callerFor(users.owner)
    ).sources.activate({ accountId: users.owner.accountId, referenceSource: "pos", sourceIdentifier: "store-1" });
    const list = await (
      await callerFor(users.staff, { staff: true })
    ).sources.list({ accountId: users.owner.accountId });
    expect(list.items).toContainEqual(source);
  });

  it("maps an already active pair to CONFLICT and keeps the service's field errors", async () => {
    const api = await callerFor(users.owner);
    await api.sources.activate({ accountId: users.owner.accountId, referenceSource: "market", sourceIdentifier: "de" });
    const error = await failure(
      api.sources.activate({ accountId: users.owner.accountId, referenceSource: "market", sourceIdentifier: "de" }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(error.cause).toBeInstanceOf(AppError);
    expect((error.cause as AppError).errors).toEqual([{ field: "sourceIdentifier", message: "pair already active" }]);
  });
});
