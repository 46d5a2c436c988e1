import type { Kysely } from 'kysely'

/**
 * Insights: one row per (tenant, resource, category), upserted by every analysis, with the status a person set
 * and the last action they took. `found` says whether the latest analysis still finds the condition, so that a
 * condition that went away and came back is told apart from one that never left.
 *
 * cpu_metrics gains the daily 95th percentile of a VM's CPU (of its hourly values), which over-provisioning needs:
 * the daily average and maximum alone cannot tell a busy hour from a busy day. Null for days collected before.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cpu_metrics').addColumn('p95_percent', 'double precision').execute()

  await db.schema
    .createTable('insights')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('resource_name', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_name', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('recommendation', 'text', (c) => c.notNull())
    .addColumn('estimated_monthly_savings', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('snoozed_until', 'text')
    .addColumn('found', 'integer', (c) => c.notNull())
    .addColumn('last_action', 'text')
    .addColumn('last_action_at', 'text')
    .addColumn('last_action_by_type', 'text')
    .addColumn('last_action_by_id', 'text')
    .addColumn('last_action_by_name', 'text')
    .addColumn('last_action_snooze_days', 'integer')
    .addColumn('detected_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('insights_natural_key', ['tenant_id', 'resource_id', 'category'])
    .execute()
  // The list's order (largest saving first, id last) within a tenancy.
  await db.schema
    .createIndex('insights_by_saving')
    .on('insights')
    .columns(['tenant_id', 'estimated_monthly_savings desc', 'id'])
    .execute()
}
