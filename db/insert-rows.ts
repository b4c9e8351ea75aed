import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * `insert into <table> (<columns>) select … from json_to_recordset(<one parameter>)`: any number of rows as one
 * JSON parameter. Unlike a multi-row VALUES list (one parameter per value, up to 65,535), the statement's text
 * depends only on the columns, so PostgreSQL parses and plans it once per connection (db/client names it), a
 * 500-order batch needs no chunking, and several tables' inserts compose into one statement as CTEs
 * (persist-orders.ts): one round trip for an order, its parcels, its tracking events and whatever else is
 * written with it.
 *
 * `rows` use the table's property names; a Date is sent as its ISO string, a missing value as null. jsonb
 * columns take the JSON value itself. Columns left out get their defaults.
 */
export function insertRows<T extends PgTable, K extends keyof T["$inferInsert"] & string>(
  table: T,
  columns: readonly K[],
  rows: readonly Pick<T["$inferInsert"], K>[],
  returning?: SQL,
): SQL {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const picked = columns.map((key) => {
    const column = all[key]!;
    // A json(b) value travels as its JSON text, so a JSON null stays the JSON value null (json_to_recordset would
    // read a nested null as SQL NULL); it is parsed where it is stored, as a bound parameter would be.
    const json = /^jsonb?$/.test(column.getSQLType());
    return { key, name: `"${column.name}"`, type: json ? "text" : column.getSQLType(), json };
  });
  const names = picked.map((c) => c.name).join(", ");
  const selected = picked.map((c) => (c.json ? `${c.name}::jsonb` : c.name)).join(", ");
  const record = picked.map((c) => `${c.name} ${c.type}`).join(", ");
  const json = JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const c of picked) {
        const value = row[c.key];
        out[c.name.slice(1, -1)] = c.json && value !== undefined ? JSON.stringify(value) : value;
      }
      return out;
    }),
  );
  return sql.join(
    [
      sql.raw(`insert into "${getTableName(table)}" (${names}) select ${selected} from json_to_recordset(`),
      sql`${json}::json`,
      sql.raw(`) as r(${record})`),
      ...(returning ? [sql` returning ${returning}`] : []),
    ],
    sql``,
  );
}
