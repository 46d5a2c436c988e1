import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * daily_costs names a resource by its number in cost_resources (`resource_id`) instead of its tenant and
 * lower-cased ARM path: its key becomes (resource_id, date, meter_id, charge_category, charge_class).
 *
 * The tenant id (36 characters) and the ARM path (about 130) were half of every cost row, written once per row,
 * again into the WAL and compared at every step of every seek. bench/focus-import.ts, 553,000 rows: the table
 * took 199 MB, now about 110 MB; its upsert in the final transaction 1.02-1.09 s, now 0.86 s, and the commit that
 * checkpoints it 0.44-0.47 s, now 0.17-0.18 s (the statements alone, replayed on the benchmark's rows). A tenant's
 * rows are those of its resources (cost_resources' key starts with the tenant); the resource series, running
 * totals and summaries already name resources by these numbers (migration 0021).
 *
 * SQLite cannot change a table's key in place: it is rebuilt, its rows copied in key order. PostgreSQL's table
 * is rebuilt alike and loses its (tenant_id, date) index: a tenant's days are read by one range of the key per
 * resource, as SQLite reads them.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await sql`
    insert into cost_resources (tenant_id, resource_key)
    select distinct tenant_id, resource_key from daily_costs where true order by 1, 2
    on conflict (tenant_id, resource_key) do nothing`.execute(db)
  await db.schema
    .createTable('daily_costs_by_resource')
    .addColumn('resource_id', 'bigint', (c) => c.notNull())
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
    .addPrimaryKeyConstraint('daily_costs_by_resource_key', [
      'resource_id',
      'date',
      'meter_id',
      'charge_category',
      'charge_class',
    ])
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute()
  await sql`
    insert into daily_costs_by_resource (resource_id, date, meter_id, charge_category, charge_class, subscription_id,
      resource_group_key, meter_name, service_name, cost, currency)
    select c.id, d.date, d.meter_id, d.charge_category, d.charge_class, d.subscription_id, d.resource_group_key,
      d.meter_name, d.service_name, d.cost, d.currency
    from daily_costs d join cost_resources c on c.tenant_id = d.tenant_id and c.resource_key = d.resource_key
    order by c.id, d.date, d.meter_id, d.charge_category, d.charge_class`.execute(db)
  await db.schema.dropTable('daily_costs').execute()
  await db.schema.alterTable('daily_costs_by_resource').renameTo('daily_costs').execute()
}
