import { type CreateTableBuilder, type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * Cost rows keep their FOCUS charge category (Usage, Purchase, Tax, Credit, Adjustment) and charge class
 * ('Correction' or '' for none), both part of the key: a purchase, a tax and a refund of one meter and day are
 * rows of their own, never summed into its usage. Rows stored before become Usage.
 *
 * The primary key of daily_costs changes, which SQLite cannot alter: the table is rebuilt (on both dialects, one
 * path) and the old rows copied over.
 *
 * Then the daily series that charts and anomaly detection read instead of the raw rows, written in the same
 * transaction as the costs they sum (see mergeStaged in src/features/costs/store.ts):
 * - resource_cost_series: daily_costs summed over meters, per resource, service, charge category and currency;
 * - group_cost_series: per subscription, resource group and service (what a narrowed chart groups by);
 * - cost_series: per tenant, subscription, resource group or service (`level`), for the common charts;
 * - resource_running_costs: running totals per resource, to rank resources over any range.
 * Each is keyed by date first, so a run's window is one range of the key for deleting and rewriting it. On SQLite
 * they are WITHOUT ROWID tables: the key is the table, one B-tree to write instead of a table and its key index
 * (the resource series is nearly as large as daily_costs; its rewrite took 7.4 s instead of 7.8 s for 1.2 million
 * rows, and half the pages).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const keyIsTable = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    db.getExecutor().adapter instanceof SqliteAdapter ? table.modifyEnd(sql`without rowid`) : table
  await db.schema
    .createTable('daily_costs_keyed')
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
    .execute()
  await sql`
    insert into daily_costs_keyed (tenant_id, resource_key, date, meter_id, charge_category, charge_class,
      subscription_id, resource_group_key, meter_name, service_name, cost, currency)
    select tenant_id, resource_key, date, meter_id, 'Usage', '', subscription_id, resource_group_key, meter_name,
      service_name, cost, currency
    from daily_costs`.execute(db)
  await db.schema.dropTable('daily_costs').execute()
  await db.schema.alterTable('daily_costs_keyed').renameTo('daily_costs').execute()
  await db.schema.createIndex('daily_costs_tenant_date').on('daily_costs').columns(['tenant_id', 'date']).execute()

  await db.schema
    .alterTable('cost_staging')
    .addColumn('charge_category', 'text', (c) => c.notNull().defaultTo('Usage'))
    .execute()
  await db.schema
    .alterTable('cost_staging')
    .addColumn('charge_class', 'text', (c) => c.notNull().defaultTo(''))
    .execute()

  await db.schema
    .createTable('resource_cost_series')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('charge_category', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_key', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_cost_series_key', [
      'tenant_id',
      'date',
      'resource_key',
      'service_name',
      'charge_category',
      'currency',
    ])
    .$call(keyIsTable)
    .execute()

  await db.schema
    .createTable('group_cost_series')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_key', 'text', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('charge_category', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_cost_series_key', [
      'tenant_id',
      'date',
      'subscription_id',
      'resource_group_key',
      'service_name',
      'charge_category',
      'currency',
    ])
    .$call(keyIsTable)
    .execute()

  await db.schema
    .createTable('cost_series')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull()) // tenant, subscription, resourceGroup or service
    .addColumn('date', 'text', (c) => c.notNull())
    // '' for the tenant; the subscription id; `{subscriptionId}/{group lower-cased}`; the service name
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('charge_category', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('cost_series_key', [
      'tenant_id',
      'level',
      'date',
      'scope_key',
      'charge_category',
      'currency',
    ])
    .$call(keyIsTable)
    .execute()

  // Per resource and currency, the cost of every category up to and including each day it has cost: the total of
  // any range is two lookups per resource (the running total at its end, less that before its start), so a chart
  // ranks 20,000 resources over 400 days without summing their 8 million daily rows.
  await db.schema
    .createTable('resource_running_costs')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('running_cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_running_costs_key', ['tenant_id', 'resource_key', 'currency', 'date'])
    .$call(keyIsTable)
    .execute()

  // The series of the rows stored before, so charts keep showing them.
  const tenants = await sql<{ tenantId: string; first: string; last: string }>`
    select tenant_id as "tenantId", min(date) as first, max(date) as last from daily_costs group by tenant_id`.execute(
    db,
  )
  for (const t of tenants.rows) {
    for (const statement of seriesRebuildStatements(t.tenantId, t.first, t.last)) await statement.execute(db)
  }
}

/**
 * The statements that rebuild every series of one tenant over [from, to] from daily_costs, as of this migration's
 * schema. The cost store has its own copy (it evolves with later migrations; this one must not).
 */
function seriesRebuildStatements(tenantId: string, from: string, to: string) {
  const range = sql`tenant_id = ${tenantId} and date >= ${from} and date <= ${to}`
  return [
    sql`insert into resource_cost_series (tenant_id, date, resource_key, service_name, charge_category, currency,
        subscription_id, resource_group_key, cost)
      select tenant_id, date, resource_key, service_name, charge_category, currency, max(subscription_id),
        max(resource_group_key), sum(cost)
      from daily_costs where ${range}
      group by tenant_id, date, resource_key, service_name, charge_category, currency`,
    sql`insert into group_cost_series (tenant_id, date, subscription_id, resource_group_key, service_name,
        charge_category, currency, cost)
      select tenant_id, date, subscription_id, resource_group_key, service_name, charge_category, currency, sum(cost)
      from resource_cost_series where ${range}
      group by tenant_id, date, subscription_id, resource_group_key, service_name, charge_category, currency`,
    sql`insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
      select tenant_id, 'resourceGroup', date, subscription_id || '/' || resource_group_key, charge_category,
        currency, sum(cost)
      from group_cost_series where ${range}
      group by tenant_id, date, subscription_id, resource_group_key, charge_category, currency`,
    sql`insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
      select tenant_id, 'service', date, service_name, charge_category, currency, sum(cost)
      from group_cost_series where ${range}
      group by tenant_id, date, service_name, charge_category, currency`,
    sql`insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
      select tenant_id, 'subscription', date, subscription_id, charge_category, currency, sum(cost)
      from group_cost_series where ${range}
      group by tenant_id, date, subscription_id, charge_category, currency`,
    sql`insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
      select tenant_id, 'tenant', date, '', charge_category, currency, sum(cost)
      from cost_series where level = 'subscription' and ${range}
      group by tenant_id, date, charge_category, currency`,
    sql`insert into resource_running_costs (tenant_id, resource_key, currency, date, running_cost)
      select tenant_id, resource_key, currency, date,
        sum(sum(cost)) over (partition by resource_key, currency order by date)
      from resource_cost_series where ${range}
      group by tenant_id, resource_key, currency, date`,
  ]
}
