import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('tag_key', 'text')
    .addColumn('tag_value', 'text')
    .addColumn('created_by_type', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'text')
    .addColumn('created_by_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  // The list order (newest first, id last) straight off the index, and the chart's range scans.
  await db.schema
    .createIndex('events_tenant_occurred')
    .on('events')
    .columns(['tenant_id', 'occurred_at desc', 'id desc'])
    .execute()
  // The category filter counts and pages over this one instead of the whole tenant.
  await db.schema
    .createIndex('events_tenant_category_occurred')
    .on('events')
    .columns(['tenant_id', 'category', 'occurred_at desc', 'id desc'])
    .execute()

  // Idempotency-Key of creates, per API key (or user) and tenant: a retried CI step gets the first answer.
  // While the create is in flight, response_body is null.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['actor_id', 'tenant_id', 'idempotency_key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute()
}
