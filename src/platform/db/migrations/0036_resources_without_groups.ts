import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * Resources of clouds without resource groups. An AWS or Google Cloud resource (an ARN, a Google resource name)
 * belongs to an account or project, which plays the subscription's part, and to no group: its
 * `resource_group_id` and `resource_group_name` are null. A group made up per account or region would mislead,
 * and filters by group would find it.
 *
 * `tags_at`: the charge period start of the FOCUS row a resource's tags were read from, so that an import of an
 * older billing period alone (a restatement) does not replace newer tags; null for tags a collection read (current).
 *
 * PostgreSQL drops the two NOT NULL constraints; SQLite cannot, so the table is built again with its rows and
 * indexes (nothing references it).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table resources alter column resource_group_id drop not null`.execute(db)
    await sql`alter table resources alter column resource_group_name drop not null`.execute(db)
    await sql`alter table resources add column tags_at text`.execute(db)
    return
  }
  await db.schema
    .createTable('resources_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_id', 'text', (c) => c.references('resource_groups.id'))
    .addColumn('resource_group_name', 'text')
    .addColumn('arm_id', 'text', (c) => c.notNull())
    .addColumn('arm_id_lower', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('tags_at', 'text')
    .addColumn('sku', 'text')
    .addColumn('state', 'text')
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('resources_tenant_arm', ['tenant_id', 'arm_id_lower'])
    .execute()
  await sql`
    insert into resources_next (id, tenant_id, subscription_id, resource_group_id, resource_group_name, arm_id,
      arm_id_lower, name, resource_type, location, tags, sku, state, properties, first_seen_at, last_seen_at)
    select id, tenant_id, subscription_id, resource_group_id, resource_group_name, arm_id, arm_id_lower, name,
      resource_type, location, tags, sku, state, properties, first_seen_at, last_seen_at
    from resources`.execute(db)
  await db.schema.dropTable('resources').execute()
  await sql`alter table resources_next rename to resources`.execute(db)
  await db.schema
    .createIndex('resources_tenant_group')
    .on('resources')
    .columns(['tenant_id', 'resource_group_id'])
    .execute()
  await db.schema
    .createIndex('resources_tenant_subscription')
    .on('resources')
    .columns(['tenant_id', 'subscription_id'])
    .execute()
  await db.schema.createIndex('resources_tenant_name').on('resources').columns(['tenant_id', 'name', 'id']).execute()
}
