import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * daily_costs gains `month` (`YYYY-MM`, the first seven characters of `date`) at the head of its key:
 * (month, resource_id, date, meter_id, charge_category, charge_class).
 *
 * Keyed by resource first, a month of new rows (a pull's next billing period, a collection's new days) landed in
 * every resource's part of the B-tree: one or two pages of 16 KB rewritten per resource for a few kilobytes of
 * rows, all of them copied into the WAL and again into the database file at the checkpoint. 16,700 resources x
 * 30 days a month over 20 months, the table's rows alone (a raw upsert, 4 MB page cache, as a merge runs):
 * 86 s of inserts and 74 s of commits by resource, 26 s and 12 s by month. A month's rows now fill pages of
 * their own, in the order they are written.
 *
 * Readers name the months of their days (`month in (...)`, see costRowDays in features/costs/read/rows.ts), so
 * each resource's rows of a month are still one range of the key: a window of a few months is a few seeks per
 * resource instead of one.
 * SQLite cannot change a table's key in place: it is rebuilt, its rows copied in the new key's order; so is
 * PostgreSQL's.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('daily_costs_by_month')
    .addColumn('month', 'text', (c) => c.notNull())
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
    .addColumn('billing_period', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('daily_costs_by_month_key', [
      'month',
      'resource_id',
      'date',
      'meter_id',
      'charge_category',
      'charge_class',
    ])
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute()
  await sql`
    insert into daily_costs_by_month (month, resource_id, date, meter_id, charge_category, charge_class,
      subscription_id, resource_group_key, meter_name, service_name, cost, currency, billing_period)
    select substr(date, 1, 7), resource_id, date, meter_id, charge_category, charge_class, subscription_id,
      resource_group_key, meter_name, service_name, cost, currency, billing_period
    from daily_costs
    order by substr(date, 1, 7), resource_id, date, meter_id, charge_category, charge_class`.execute(db)
  await db.schema.dropTable('daily_costs').execute()
  await db.schema.alterTable('daily_costs_by_month').renameTo('daily_costs').execute()
}
