import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { MIGRATIONS, migrationsBefore, migrationTargets } from "@/test/migration-targets";
import { rebuildStatistics } from "./maintain-statistics";
import { queryStatistics } from "./query-statistics";

/**
 * Migration 0025 on figures counted before it, when `cod` still summed every order created: the COD of the orders
 * already replaced or deleted is taken back, so the kept figures agree with a recount of the records.
 */
const COD_MIGRATION = 25;
const before = migrationsBefore(COD_MIGRATION);
afterAll(() => rmSync(before, { recursive: true, force: true }));

describe.each(migrationTargets())("migration 0025 on %s", (_name, open) => {
  it("takes back the COD that replaced and deleted orders were counted with", async () => {
    const target = await open();
    try {
      const { db } = target;
      await target.migrate(before);
      const [account] = await queryRows<{ id: string }>(
        db,
        `insert into accounts (name) values ('Shop') returning id`,
        [],
      );
      const [profile] = await queryRows<{ id: string }>(
        db,
        `insert into courier_profiles (account_id, courier, name) values ($1, 'sandbox', 'A') returning id`,
        [account!.id],
      );
      const order = async (reference: string, cod: string | null) =>
        (
          await queryRows<{ id: string }>(
            db,
            `insert into shipping_orders (account_id, courier, courier_profile_id, reference_number, reference_source,
               source_identifier, service, cod_price, cod_currency, recipient_name, recipient_street, recipient_city,
               recipient_zip, recipient_country, created_at)
             values ($1, 'sandbox', $2, $3, 'api', 'default', 'STANDARD', $4::numeric, case when $4::text is null then null else 'CZK' end,
               'Jana', 'Dlouhá 12', 'Praha', '110 00', 'CZ', '2026-06-10T10:00:00Z')
             returning id`,
            [account!.id, profile!.id, reference, cod],
          )
        )[0]!.id;
      const remove = (id: string, successor: string | null = null) =>
        queryRows(
          db,
          `update shipping_orders set deleted_at = '2026-06-10T11:00:00Z', status = 'CANCELLED', replaced_by_id = $2::uuid
           where id = $1::uuid`,
          [id, successor],
        );
      // COD-1 created three times (each replacing the one before), COD-2 deleted, COD-3 live.
      const first = await order("COD-1", "499");
      await remove(first, crypto.randomUUID());
      const second = await order("COD-1", "499");
      await remove(second, crypto.randomUUID());
      await order("COD-1", "499");
      await remove(await order("COD-2", "100"));
      await order("COD-3", "20.5");
      const ask = { from: "2026-06-10", to: "2026-06-10" };
      const cod = async () => (await queryStatistics(db, account!.id, ask)).items.map((i) => i.cod);
      // Counted the old way: all five orders.
      expect(await cod()).toEqual([[{ currency: "CZK", amount: 1617.5 }]]);

      await target.migrate(MIGRATIONS);
      expect(await cod()).toEqual([[{ currency: "CZK", amount: 519.5 }]]);
      await rebuildStatistics(db, account!.id);
      expect(await cod()).toEqual([[{ currency: "CZK", amount: 519.5 }]]);
    } finally {
      await target.close();
    }
  }, 120_000);
});
