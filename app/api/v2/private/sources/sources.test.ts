import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import * as collection from "./route";
import * as item from "./[id]/route";

type Source = { id: string; referenceSource: string; sourceIdentifier: string; name: string | null };

describe("private API: sources", () => {
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    owner = await createTestUser();
    stranger = await createTestUser();
  });
  const activate = (user: TestUser, body: Record<string, unknown>) =>
    call(collection.POST, "/api/v2/private/sources", {
      token: user.token,
      body: { accountId: owner.accountId, ...body },
    });

  it("activates a pair (201), lists it, refuses it again (409), deactivates it (204)", async () => {
    const response = await activate(owner, {
      referenceSource: "shopify",
      sourceIdentifier: "Store-CZ",
      name: "Czech store",
    });
    expect(response.status).toBe(201);
    const source = await readJson<Source>(response);
    expect(source).toMatchObject({ referenceSource: "shopify", sourceIdentifier: "Store-CZ", name: "Czech store" });
    const list = await readJson<{ items: Source[] }>(
      await call(collection.GET, `/api/v2/private/sources?accountId=${owner.accountId}`, { token: owner.token }),
    );
    expect(list.items).toEqual([source]);
    expect((await activate(owner, { referenceSource: "shopify", sourceIdentifier: "Store-CZ" })).status).toBe(409);
    expect((await activate(owner, { referenceSource: "shopify", sourceIdentifier: "store-cz" })).status).toBe(201);
    expect((await activate(owner, { referenceSource: "api", sourceIdentifier: "default" })).status).toBe(409);
    const removed = await call(item.DELETE, `/api/v2/private/sources/${source.id}`, {
      method: "DELETE",
      token: owner.token,
      params: { id: source.id },
    });
    expect(removed.status).toBe(204);
    const after = await readJson<{ items: Source[] }>(
      await call(collection.GET, `/api/v2/private/sources?accountId=${owner.accountId}`, { token: owner.token }),
    );
    expect(after.items.map((s) => s.sourceIdentifier)).toEqual(["store-cz"]);
  });

  it("refuses incomplete pairs with 400 naming the field", async () => {
    const response = await activate(owner, { referenceSource: "shop" });
    expect(response.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(response)).errors[0]!.field).toBe("sourceIdentifier");
  });

  it("answers 404 for another account's sources", async () => {
    const mine = await readJson<Source>(await activate(owner, { referenceSource: "erp", sourceIdentifier: "main" }));
    expect(
      (await call(collection.GET, `/api/v2/private/sources?accountId=${owner.accountId}`, { token: stranger.token }))
        .status,
    ).toBe(404);
    expect((await activate(stranger, { referenceSource: "x", sourceIdentifier: "y" })).status).toBe(404);
    expect(
      (
        await call(item.DELETE, `/api/v2/private/sources/${mine.id}`, {
          method: "DELETE",
          token: stranger.token,
          params: { id: mine.id },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(item.DELETE, `/api/v2/private/sources/nope`, {
          method: "DELETE",
          token: owner.token,
          params: { id: "nope" },
        })
      ).status,
    ).toBe(404);
  });
});
