import { type Kysely, sql } from 'kysely'

/**
 * Inventory as snapshot runs will record it (contract section 5). Tags and properties are JSON text so one
 * schema serves SQLite and PostgreSQL; names and ARM ids also have a lower-cased form because Azure compares
 * them case-insensitively.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscriptions_pk', ['tenant_id', 'subscription_id'])
    .execute()

  await db.schema
    .createTable('resource_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('arm_id', 'text', (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute()
  // One group per ARM id, whatever its spelling; an expression index works on both dialects.
  await sql`create unique index resource_groups_tenant_arm on resource_groups (tenant_id, lower(arm_id))`.execute(db)
  await db.schema
    .createIndex('resource_groups_tenant_name')
    .on('resource_groups')
    .columns(['tenant_id', 'name_lower', 'subscription_id'])
    .execute()

  await db.schema
    .createTable('resources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_id', 'text', (c) => c.notNull().references('resource_groups.id'))
    .addColumn('resource_group_name', 'text', (c) => c.notNull())
    .addColumn('arm_id', 'text', (c) => c.notNull())
    .addColumn('arm_id_lower', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('sku', 'text')
    .addColumn('state', 'text')
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('resources_tenant_arm', ['tenant_id', 'arm_id_lower'])
    .execute()
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
}
