import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { createTestUser, type TestUser } from "@/test/helpers";
import { callerFor } from "@/test/trpc";

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error as TRPCError,
  );

describe("tRPC sources", () => {
  let owner: TestUser;
  let stranger: TestUser;
  let staff: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
    stranger = await createTestUser();
    staff = await createTestUser({ staff: true });
  });

  it("activates, lists and deactivates a pair", async () => {
    const api = await callerFor(owner);
    const source = await api.sources.activate({
      accountId: owner.accountId,
      referenceSource: "eshop",
      sourceIdentifier: "cz",
      name: "Czech shop",
    });
    expect((await api.sources.list({ accountId: owner.accountId })).items).toContainEqual(source);
    await api.sources.deactivate({ id: source.id });
    expect((await api.sources.list({ accountId: owner.accountId })).items).not.toContainEqual(source);
  });

  it("answers NOT_FOUND for another account's sources", async () => {
    const source = await (
      await callerFor(owner)
    ).sources.activate({ accountId: owner.accountId, referenceSource: "erp", sourceIdentifier: "main" });
    const api = await callerFor(stranger);
    expect((await failure(api.sources.list({ accountId: owner.accountId }))).code).toBe("NOT_FOUND");
    expect(
      (await failure(api.sources.activate({ accountId: owner.accountId, referenceSource: "x", sourceIdentifier: "y" })))
        .code,
    ).toBe("NOT_FOUND");
    expect((await failure(api.sources.deactivate({ id: source.id }))).code).toBe("NOT_FOUND");
  });

  it("lets staff list any account's sources", async () => {
    const source = await (
      await callerFor(owner)
    ).sources.activate({ accountId: owner.accountId, referenceSource: "pos", sourceIdentifier: "store-1" });
    const list = await (await callerFor(staff, { staff: true })).sources.list({ accountId: owner.accountId });
    expect(list.items).toContainEqual(source);
  });

  it("maps an already active pair to CONFLICT and keeps the service's field errors", async () => {
    const api = await callerFor(owner);
    await api.sources.activate({ accountId: owner.accountId, referenceSource: "market", sourceIdentifier: "de" });
    const error = await failure(
      api.sources.activate({ accountId: owner.accountId, referenceSource: "market", sourceIdentifier: "de" }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(error.cause).toBeInstanceOf(AppError);
    expect((error.cause as AppError).errors).toEqual([{ field: "sourceIdentifier", message: "pair already active" }]);
  });
});
