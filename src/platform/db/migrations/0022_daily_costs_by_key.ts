import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * On SQLite, daily_costs becomes its key (a WITHOUT ROWID table) without the (tenant_id, date) index: one B-tree
 * where there were three (the rows, a copy of their 6-column key, the date index).
 *
 * What read the date index reads the daily series instead (a tenant's first, last and latest days, its totals,
 * those of a subscription or group, a tenant's days before a merge), or daily_costs' key per resource (a few days
 * of a long history, each resource numbered in cost_resources). bench/focus-import.ts, 553,000 rows: the table and
 * its indexes took 373 MB, now 208 MB, and the upsert of its rows 2.8-4.1 s, now 1.8-2.3 s (its commit 0.8 s, now
 * 0.5 s). SQLite cannot turn a table into a WITHOUT ROWID one: it is rebuilt, its rows copied in key order.
 *
 * PostgreSQL keeps its table (a heap and its key's index) and the date index, through which it reads a few days
 * of a tenant when it rewrites their series.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return
  const columns = sql`tenant_id, resource_key, date, meter_id, charge_category, charge_class, subscription_id,
    resource_group_key, meter_name, service_name, cost, currency`
  await db.schema
    .createTable('daily_costs_by_key')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('meter_id', 'text', (c) => c.notNull())
    .addColumn('charge_category', 'text', (c) => c.notNull().defaultTo('Usage'))
    .addColumn('charge_class', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_key', 'text', (c) => c.notNull())
    .addColumn('meter_name', 'text')
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_costs_key', [
      'tenant_id',
      'resource_key',
      'date',
      'meter_id',
      'charge_category',
      'charge_class',
    ])
    .modifyEnd(sql`without rowid`)
    .execute()
  await sql`insert into daily_costs_by_key (${columns}) select ${columns} from daily_costs
    order by tenant_id, resource_key, date, meter_id, charge_category, charge_class`.execute(db)
  await db.schema.dropTable('daily_costs').execute()
  await db.schema.alterTable('daily_costs_by_key').renameTo('daily_costs').execute()
}
