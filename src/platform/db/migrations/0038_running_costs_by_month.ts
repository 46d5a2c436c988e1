import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * The running totals (resource_running_costs) keyed by month first, as the cost rows are since migration 0037:
 * (month, resource_id, currency, date). A pull's next month of running totals used to land in every resource's
 * part of the B-tree, one page of 16 KB rewritten per resource for about a kilobyte of rows. 16,700 resources x
 * 30 days over 20 months, the table's rows alone: 25 s of inserts and 30 s of commits by resource, 10 s and 4 s by
 * month.
 *
 * A running total "on or before a day" was one seek of a resource's range; across months it is found in two:
 * the day's month in resource_running_costs, else the latest earlier month's last running total, which
 * `resource_month_ends` keeps per resource, currency and month (the day and running total of the month's last
 * row), keyed by resource: one small row per resource and month, what a first and last day are found from too.
 * Both tables are rebuilt on SQLite (a key cannot change in place) and on PostgreSQL alike.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('resource_running_costs_by_month')
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('running_cost', 'double precision', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_running_costs_by_month_key', ['month', 'resource_id', 'currency', 'date'])
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute()
  await sql`
    insert into resource_running_costs_by_month (month, resource_id, currency, date, running_cost, cost)
    select substr(date, 1, 7), resource_id, currency, date, running_cost, cost from resource_running_costs
    order by substr(date, 1, 7), resource_id, currency, date`.execute(db)
  await db.schema.dropTable('resource_running_costs').execute()
  await db.schema.alterTable('resource_running_costs_by_month').renameTo('resource_running_costs').execute()

  await db.schema
    .createTable('resource_month_ends')
    .addColumn('resource_id', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('running_cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_month_ends_key', ['resource_id', 'currency', 'month'])
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute()
  await sql`
    insert into resource_month_ends (resource_id, currency, month, date, running_cost)
    select r.resource_id, r.currency, r.month, r.date, r.running_cost
    from resource_running_costs r
    join (
      select resource_id, currency, month, max(date) as date from resource_running_costs
      group by resource_id, currency, month
    ) last on last.resource_id = r.resource_id and last.currency = r.currency and last.month = r.month
      and last.date = r.date
    order by r.resource_id, r.currency, r.month`.execute(db)
}
