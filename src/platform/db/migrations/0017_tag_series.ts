import { type CreateTableBuilder, type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * Charts by tag and by resource over a large tenant.
 *
 * A chart of a tenant grouped by tag read every resource's days and joined each to its tags (3.6 s at 60 days of
 * 20,000 resources). Two tables make it a read of one small series, written with the other series (see
 * rebuildSeries in src/features/costs/store.ts):
 * - resource_tags: the value of each tag key (lower-cased, as Azure compares them) of each resource, as the
 *   inventory holds it; what the tag series were last summed with, so a changed tag is noticed;
 * - tag_cost_series: per tag key, day, value and currency, the cost (every charge category) of the resources
 *   with that value. Costs without the tag are the tenant's total less these, and are not stored.
 * Keyed for their reads: the tags by resource (the join from the resource series), the series by key then date.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  const keyIsTable = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    sqlite ? table.modifyEnd(sql`without rowid`) : table
  await db.schema
    .createTable('resource_tags')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addColumn('tag_value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_tags_key', ['tenant_id', 'resource_key', 'tag_key'])
    .$call(keyIsTable)
    .execute()
  await db.schema
    .createTable('tag_cost_series')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('tag_value', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('tag_cost_series_key', ['tenant_id', 'tag_key', 'date', 'tag_value', 'currency'])
    .$call(keyIsTable)
    .execute()

  // A chart by resource found the tenant's resources by skipping through the running totals (a seek each), then
  // looked up three running totals per resource, and read its largest resources' days from daily_costs (a table
  // lookup per cost row). Now it reads one summary row per resource and the largest ones' days from their running
  // totals, which keep each day's cost beside the running total.
  await db.schema
    .alterTable('resource_running_costs')
    .addColumn('cost', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`
    update resource_running_costs set cost = coalesce((
      select sum(s.cost) from resource_cost_series s
      where s.tenant_id = resource_running_costs.tenant_id and s.date = resource_running_costs.date
        and s.resource_key = resource_running_costs.resource_key and s.currency = resource_running_costs.currency
    ), 0)`.execute(db)
  await db.schema
    .createTable('resource_cost_totals')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('first_date', 'text', (c) => c.notNull())
    .addColumn('last_date', 'text', (c) => c.notNull())
    .addColumn('running_cost', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_cost_totals_key', ['tenant_id', 'currency', 'resource_key'])
    .$call(keyIsTable)
    .execute()
  await sql`
    insert into resource_cost_totals (tenant_id, currency, resource_key, first_date, last_date, running_cost)
    select r.tenant_id, r.currency, r.resource_key, b.first_date, b.last_date, r.running_cost
    from (
      select tenant_id, resource_key, currency, min(date) as first_date, max(date) as last_date
      from resource_running_costs group by tenant_id, resource_key, currency
    ) b
    join resource_running_costs r on r.tenant_id = b.tenant_id and r.resource_key = b.resource_key
      and r.currency = b.currency and r.date = b.last_date`.execute(db)

  // The tags and tag series of what is stored already, as of this migration's schema.
  const eachTag = sqlite ? sql`json_each(r.tags)` : sql`jsonb_each_text(r.tags::jsonb)`
  await sql`
    insert into resource_tags (tenant_id, resource_key, tag_key, tag_value)
    select r.tenant_id, r.arm_id_lower, lower(j.key), min(j.value)
    from resources r cross join ${eachTag} j
    group by r.tenant_id, r.arm_id_lower, lower(j.key)`.execute(db)
  await sql`
    insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, cost)
    select s.tenant_id, t.tag_key, s.date, t.tag_value, s.currency, sum(s.cost)
    from resource_cost_series s
    join resource_tags t on t.tenant_id = s.tenant_id and t.resource_key = s.resource_key
    group by s.tenant_id, t.tag_key, s.date, t.tag_value, s.currency`.execute(db)
}
