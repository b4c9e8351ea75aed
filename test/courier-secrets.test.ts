import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before any module makes the logger: every line of this file goes to a file the test reads, at debug level.
const logFile = vi.hoisted(() => {
  const file = `${process.env.TMPDIR ?? "/tmp"}/sop-courier-log-${process.pid}-${Date.now()}.jsonl`;
  process.env.LOG_FILE = file;
  process.env.LOG_LEVEL = "debug";
  return file;
});

import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as check from "@/app/api/v2/private/courier-profiles/[id]/check/route";
import * as profileItem from "@/app/api/v2/private/courier-profiles/[id]/route";
import * as profiles from "@/app/api/v2/private/courier-profiles/route";
import * as label from "@/app/api/v2/shipping-orders/[id]/label/route";
import * as orderItem from "@/app/api/v2/shipping-orders/[id]/route";
import { getDb, rowsOf } from "@/db/client";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { advanceDueTracking } from "@/server/services/shipping-orders/advance-tracking";
import { call, readJson } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";

/**
 * Courier credentials are secrets: after a full flow with Packeta and PPL (profiles created and changed, checked with
 * good and bad credentials, orders created, refused for credentials, labelled, tracked and cancelled), no table of the
 * database (what a dump holds, the audit log included), no log line and no answer carries a password, a client
 * secret or PPL's access token.
 */

const PACKETA_PASSWORD = "pkPW0123456789abcdef0123456789xy";
const PACKETA_WRONG = "wrongPW456789abcdef0123456789xyz";
const PPL_ID = "secret-test-client";
const PPL_SECRET = "ppl-very-secret-client-secret-987";
const PPL_WRONG = "ppl-wrong-client-secret-000000001";

let packeta: Awaited<ReturnType<typeof startFakePacketa>>;
let ppl: Awaited<ReturnType<typeof startFakePpl>>;
beforeAll(async () => {
  packeta = await startFakePacketa({ password: PACKETA_PASSWORD });
  ppl = await startFakePpl({ clientId: PPL_ID, clientSecret: PPL_SECRET });
  process.env.COURIER_PACKETA_URL = packeta.url;
  process.env.COURIER_PPL_URL = ppl.url;
});
afterAll(async () => {
  await packeta.close();
  await ppl.close();
});

describe("courier credentials", () => {
  it("appear in no table, no log line and no answer", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const answers: string[] = [];
    const keep = async (response: Response) => {
      answers.push(await response.clone().text());
      return response;
    };
    const newProfile = async (courier: string, settings: Record<string, unknown>) =>
      readJson<{ id: string }>(
        await keep(
          await call(profiles.POST, "/api/v2/private/courier-profiles", {
            token: partner.token,
            body: { accountId: partner.accountId, courier, name: courier, isDefault: true, settings },
          }),
        ),
      );
    const packetaProfile = await newProfile("packeta", { apiPassword: PACKETA_PASSWORD, sender: "shop" });
    const pplProfile = await newProfile("ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const wrongProfile = await newProfile("ppl", { clientId: PPL_ID, clientSecret: PPL_WRONG });
    for (const id of [packetaProfile.id, pplProfile.id, wrongProfile.id])
      await keep(
        await call(check.POST, `/api/v2/private/courier-profiles/${id}/check`, {
          token: partner.token,
          params: { id },
        }),
      );
    await keep(
      await call(profiles.GET, `/api/v2/private/courier-profiles?accountId=${partner.accountId}`, {
        token: partner.token,
      }),
    );

    const post = async (courier: string, body: unknown, profile?: string) =>
      readJson<{ items: { id: string }[]; failed: unknown[] }>(
        await keep(
          await as(partner)(
            create.POST,
            `/api/v2/couriers/${courier}/shipping-orders${profile ? `?profile=${profile}` : ""}`,
            { body, params: { courier_id: courier } },
          ),
        ),
      );
    const viaPacketa = await post("packeta", order({ PickupPoint: "4321", InsurancePrice: 100 }));
    const viaPpl = await post("ppl", order(), pplProfile.id);
    const refused = await post("ppl", order(), wrongProfile.id);
    expect(viaPacketa.items, JSON.stringify(viaPacketa)).toHaveLength(1);
    expect(viaPpl.items, JSON.stringify(viaPpl)).toHaveLength(1);
    expect(refused.failed).toEqual([expect.objectContaining({ code: "COURIER_AUTH_FAILED" })]);
    for (const { id } of [...viaPacketa.items, ...viaPpl.items])
      await keep(await as(partner)(label.GET, `/api/v2/shipping-orders/${id}/label`, { params: { id } }));
    const later = new Date(Date.now() + 10 * 60_000);
    await advanceDueTracking(db, { courier: "packeta", now: later });
    await advanceDueTracking(db, { courier: "ppl", now: later });
    // A PATCH that changes the password (the old one must not linger), and a delete.
    await keep(
      await call(profileItem.PATCH, `/api/v2/private/courier-profiles/${wrongProfile.id}`, {
        method: "PATCH",
        token: partner.token,
        body: { settings: { clientId: PPL_ID, clientSecret: PPL_SECRET } },
        params: { id: wrongProfile.id },
      }),
    );
    const doomed = viaPacketa.items[0]!.id;
    await keep(
      await as(partner)(orderItem.DELETE, `/api/v2/shipping-orders/${doomed}`, {
        method: "DELETE",
        params: { id: doomed },
      }),
    );

    // PPL's access tokens, as the fake issued them.
    const tokens = ppl.requests
      .flatMap((r) => [r.headers.authorization ?? ""])
      .filter((h) => h.startsWith("Bearer "))
      .map((h) => h.slice("Bearer ".length));
    expect(tokens.length).toBeGreaterThan(0);
    const secrets = [PACKETA_PASSWORD, PACKETA_WRONG, PPL_SECRET, PPL_WRONG, ...new Set(tokens)];

    const tables = rowsOf<{ t: string }>(
      await db.execute(sql`select tablename as t from pg_tables where schemaname = 'public'`),
    ).map((r) => r.t);
    expect(tables).toContain("audit_events");
    for (const table of tables) {
      const dump =
        rowsOf<{ d: string | null }>(
          await db.execute(sql`select string_agg(x::text, ' ') as d from ${sql.identifier(table)} x`),
        )[0]?.d ?? "";
      for (const secret of secrets) expect(dump.includes(secret), `table ${table} holds a secret`).toBe(false);
    }
    const log = readFileSync(logFile, "utf8");
    expect(log).toContain("courier call");
    for (const secret of secrets) expect(log.includes(secret), "a secret reached the log").toBe(false);
    for (const answer of answers)
      for (const secret of secrets)
        expect(answer.includes(secret), `an answer carries a secret: ${answer}`).toBe(false);
  });
});
