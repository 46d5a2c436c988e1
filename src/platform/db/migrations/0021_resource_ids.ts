import { type CreateTableBuilder, type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely'

/**
 * The resource series and running totals name a resource by a number instead of its ARM path.
 *
 * Both hold a row per resource and day (20,000 resources x 400 days: 8 million rows each), and a lower-cased ARM
 * path is about 130 characters: most of each row, written once per row and again into the WAL. Now:
 * - cost_resources: one row per resource with cost in a tenant, its number `id` and its key (the lower-cased ARM
 *   path, '' for charges of a subscription itself);
 * - resource_cost_series and resource_running_costs name it by `resource_id`; the running totals drop the tenant
 *   too (a number is one tenant's), keyed (resource_id, currency, date) for their seeks;
 * - resource_cost_totals keeps the key (what lists and charts show and join the inventory on) beside the number
 *   (what a seek into the running totals takes).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  const keyIsTable = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    sqlite ? table.modifyEnd(sql`without rowid`) : table
  await db.schema
    .createTable('cost_resources')
    .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addUniqueConstraint('cost_resources_key', ['tenant_id', 'resource_key'])
    .execute()
  await sql`
    insert into cost_resources (tenant_id, resource_key)
    select tenant_id, resource_key from resource_cost_series
    union
    select tenant_id, resource_key from resource_running_costs
    order by 1, 2`.execute(db)

  await replaceTable(
    db,
    'resource_cost_series',
    (table) =>
      db.schema
        .createTable(table)
        .addColumn('tenant_id', 'text', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'bigint', (c) => c.notNull())
        .addColumn('service_name', 'text', (c) => c.notNull())
        .addColumn('charge_category', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('resource_group_key', 'text', (c) => c.notNull())
        .addColumn('cost', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('resource_cost_series_by_id_key', [
          'tenant_id',
          'date',
          'resource_id',
          'service_name',
          'charge_category',
          'currency',
        ])
        .$call(keyIsTable),
    sql`
    insert into resource_cost_series_by_id (tenant_id, date, resource_id, service_name, charge_category, currency,
      subscription_id, resource_group_key, cost)
    select s.tenant_id, s.date, c.id, s.service_name, s.charge_category, s.currency, s.subscription_id,
      s.resource_group_key, s.cost
    from resource_cost_series s
    join cost_resources c on c.tenant_id = s.tenant_id and c.resource_key = s.resource_key`,
  )

  await replaceTable(
    db,
    'resource_running_costs',
    (table) =>
      db.schema
        .createTable(table)
        .addColumn('resource_id', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('running_cost', 'double precision', (c) => c.notNull())
        .addColumn('cost', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('resource_running_costs_by_id_key', ['resource_id', 'currency', 'date'])
        .$call(keyIsTable),
    sql`
    insert into resource_running_costs_by_id (resource_id, currency, date, running_cost, cost)
    select c.id, r.currency, r.date, r.running_cost, r.cost
    from resource_running_costs r
    join cost_resources c on c.tenant_id = r.tenant_id and c.resource_key = r.resource_key`,
  )

  await replaceTable(
    db,
    'resource_cost_totals',
    (table) =>
      db.schema
        .createTable(table)
        .addColumn('tenant_id', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('resource_key', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'bigint', (c) => c.notNull())
        .addColumn('first_date', 'text', (c) => c.notNull())
        .addColumn('last_date', 'text', (c) => c.notNull())
        .addColumn('running_cost', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('resource_cost_totals_by_id_key', ['tenant_id', 'currency', 'resource_key'])
        .$call(keyIsTable),
    sql`
    insert into resource_cost_totals_by_id (tenant_id, currency, resource_key, resource_id, first_date, last_date,
      running_cost)
    select t.tenant_id, t.currency, t.resource_key, c.id, t.first_date, t.last_date, t.running_cost
    from resource_cost_totals t
    join cost_resources c on c.tenant_id = t.tenant_id and c.resource_key = t.resource_key`,
  )
}

/**
 * Replaces table `name` by the one `create` builds under the name `{name}_by_id`, filled by `copy` (an INSERT into
 * it from the old table), then renamed: SQLite cannot change a table's key in place.
 */
async function replaceTable(
  // biome-ignore lint/suspicious/noExplicitAny: as up()
  db: Kysely<any>,
  name: string,
  // biome-ignore lint/suspicious/noExplicitAny: any table's builder
  create: (table: string) => CreateTableBuilder<any, any>,
  copy: RawBuilder<unknown>,
): Promise<void> {
  await create(`${name}_by_id`).execute()
  await copy.execute(db)
  await db.schema.dropTable(name).execute()
  await db.schema.alterTable(`${name}_by_id`).renameTo(name).execute()
}
