import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/client-address";
import { call, createTestUser, readJson } from "@/test/helpers";
import * as token from "../../auth/token/route";
import * as keys from "../api-keys/route";
import * as keyItem from "../api-keys/[id]/route";
import * as sources from "../sources/route";
import * as audit from "./route";

type Event = { action: string; actor: string | null; targetId: string | null; ip: string | null; created: string };

describe("GET /private/audit-events", () => {
  it("records key, source and sign-in changes with who, when and from where, newest first", async () => {
    const owner = await createTestUser();
    const signIn = await call(token.POST, "/api/v2/auth/token", {
      body: { email: owner.email, password: owner.password },
      headers: { [CLIENT_ADDRESS_HEADER]: "203.0.113.7" },
    });
    expect(signIn.status).toBe(200);
    const key = await readJson<{ id: string }>(
      await call(keys.POST, "/api/v2/private/api-keys", {
        token: owner.token,
        body: { name: "k" },
        headers: { [CLIENT_ADDRESS_HEADER]: "203.0.113.8" },
      }),
    );
    await call(keyItem.PATCH, `/api/v2/private/api-keys/${key.id}`, {
      method: "PATCH",
      token: owner.token,
      params: { id: key.id },
      body: { name: "renamed" },
    });
    await call(keyItem.DELETE, `/api/v2/private/api-keys/${key.id}`, {
      method: "DELETE",
      token: owner.token,
      params: { id: key.id },
    });
    await call(sources.POST, "/api/v2/private/sources", {
      token: owner.token,
      body: { referenceSource: "shop", sourceIdentifier: "cz" },
    });
    const page = await readJson<{ items: Event[]; itemsCount: number }>(
      await call(audit.GET, `/api/v2/private/audit-events?accountId=${owner.accountId}`, { token: owner.token }),
    );
    // Newest first; events within one millisecond may tie, so compare the set and the ends.
    expect(page.items.map((e) => e.action).sort()).toEqual([
      "api_key.created",
      "api_key.revoked",
      "api_key.updated",
      "source.activated",
      "user.signed_in",
    ]);
    expect(page.items.at(-1)!.action).toBe("user.signed_in");
    expect(page.items.map((e) => e.created)).toEqual([...page.items.map((e) => e.created)].sort().reverse());
    expect(page.items.every((e) => e.actor === owner.email)).toBe(true);
    expect(page.items.find((e) => e.action === "api_key.created")).toMatchObject({
      targetId: key.id,
      ip: "203.0.113.8",
    });
    expect(page.items.find((e) => e.action === "user.signed_in")!.ip).toBe("203.0.113.7");
  });

  it("is for owners and staff: members get 403, other accounts 404", async () => {
    const owner = await createTestUser();
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    const stranger = await createTestUser();
    const staff = await createTestUser({ staff: true });
    const path = `/api/v2/private/audit-events?accountId=${owner.accountId}`;
    expect((await call(audit.GET, path, { token: member.token })).status).toBe(403);
    expect((await call(audit.GET, path, { token: stranger.token })).status).toBe(404);
    expect((await call(audit.GET, path, { token: staff.token })).status).toBe(200);
  });
});
