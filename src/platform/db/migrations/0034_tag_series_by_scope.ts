import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * Budgets narrowed by a tag read their costs from the tag series.
 *
 * A budget of a tag (alone, or with a service or a resource group) read every resource day of its range and joined
 * each to the resource's tags: 2.4 million rows grouped into 350,000 at 20,000 resources over 120 days, most of the
 * time of evaluating 1,000 budgets. tag_cost_series now keeps each value's cost per charge category, service and
 * resource group (its key lower-cased, any subscription, as a budget names it), so those budgets read the
 * pre-aggregated rows. Rebuilt here from the resource series and the tags they were last summed with
 * (resource_tags), as src/features/costs/rebuild.ts writes them.
 *
 * Those rows are 150 times as many as a chart by tag needs (350,000 against 2,400 for a tag of 20 values over 120
 * days: 5-17 ms became 250-400 ms), so the chart's sums per key, day, value and currency are kept beside them, in
 * tag_value_series (what tag_cost_series held until now), written from them.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema.dropTable('tag_cost_series').execute()
  await db.schema
    .createTable('tag_cost_series')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('tag_value', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('charge_category', 'text', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('resource_group_key', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    // By key then date, as both readers range over it (a chart's sums come out in the key's order, unsorted).
    .addPrimaryKeyConstraint('tag_cost_series_key', [
      'tenant_id',
      'tag_key',
      'date',
      'tag_value',
      'currency',
      'charge_category',
      'service_name',
      'resource_group_key',
    ])
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute()
  await sql`
    insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, charge_category, service_name,
      resource_group_key, cost)
    select s.tenant_id, t.tag_key, s.date, t.tag_value, s.currency, s.charge_category, s.service_name,
      s.resource_group_key, sum(s.cost)
    from resource_cost_series s
    join cost_resources c on c.id = s.resource_id
    join resource_tags t on t.tenant_id = s.tenant_id and t.resource_key = c.resource_key
    group by s.tenant_id, t.tag_key, s.date, t.tag_value, s.currency, s.charge_category, s.service_name,
      s.resource_group_key`.execute(db)
  await db.schema
    .createTable('tag_value_series')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('tag_value', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('tag_value_series_key', ['tenant_id', 'tag_key', 'date', 'tag_value', 'currency'])
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute()
  await sql`
    insert into tag_value_series (tenant_id, tag_key, date, tag_value, currency, cost)
    select tenant_id, tag_key, date, tag_value, currency, sum(cost) from tag_cost_series
    group by tenant_id, tag_key, date, tag_value, currency`.execute(db)
}
