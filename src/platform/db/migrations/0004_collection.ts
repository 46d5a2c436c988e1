import { type Kysely, sql } from 'kysely'

/**
 * Snapshot runs (the run row is the job), collected daily costs and CPU metrics.
 * Costs are keyed by (tenant, resource, date, meter) so re-collected days replace, never add.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('snapshot_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'text') // the UTC day of a scheduled run: one per tenant and day
    .addColumn('deep_history', 'integer', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('stat_subscriptions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stat_resource_groups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stat_resources', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stat_cost_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'text')
    .addColumn('worker_id', 'text')
    .execute()
  // One active run per tenant, enforced by the database whatever the number of API processes.
  await sql`create unique index snapshot_runs_one_active on snapshot_runs (tenant_id) where status in ('Queued', 'Running')`.execute(
    db,
  )
  await sql`create unique index snapshot_runs_one_scheduled on snapshot_runs (tenant_id, scheduled_for) where scheduled_for is not null`.execute(
    db,
  )
  await db.schema
    .createIndex('snapshot_runs_tenant_order')
    .on('snapshot_runs')
    .columns(['tenant_id', 'requested_at', 'id'])
    .execute()
  await db.schema
    .createIndex('snapshot_runs_queue')
    .on('snapshot_runs')
    .columns(['status', 'requested_at', 'id'])
    .execute()

  await db.schema
    .createTable('daily_costs')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    // The resource's lower-cased ARM id; '' for a charge of the subscription itself (purchases, taxes).
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('meter_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_key', 'text', (c) => c.notNull()) // lower-cased group name, '' without one
    .addColumn('meter_name', 'text')
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_costs_pk', ['tenant_id', 'resource_key', 'date', 'meter_id'])
    .execute()
  await db.schema.createIndex('daily_costs_tenant_date').on('daily_costs').columns(['tenant_id', 'date']).execute()

  // A run's cost rows land here first, then move into daily_costs in one statement of one transaction,
  // so a failed run leaves the previous data intact and a long collection never holds the write lock.
  await db.schema
    .createTable('cost_staging')
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('meter_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('resource_group_key', 'text', (c) => c.notNull())
    .addColumn('meter_name', 'text')
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('cost_staging_run').on('cost_staging').columns(['run_id']).execute()

  await db.schema
    .createTable('cpu_metrics')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('resource_key', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('average_percent', 'double precision', (c) => c.notNull())
    .addColumn('max_percent', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('cpu_metrics_pk', ['tenant_id', 'resource_key', 'date'])
    .execute()
}
