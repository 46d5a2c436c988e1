import { type Kysely, sql } from 'kysely'

/**
 * Analysis runs: after a snapshot or an import, the tenant's new days are judged (anomalies) and its estate is
 * checked (insights) in a run of its own, leased and retried like any run. `range_from`..`range_to` are the UTC
 * days whose costs changed; a queued run that has not started yet is widened rather than doubled, so a tenant has
 * at most one run waiting.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analysis_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_run_id', 'text')
    .addColumn('range_from', 'text', (c) => c.notNull())
    .addColumn('range_to', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('progress', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('not_before', 'text')
    .execute()
  await sql`create unique index analysis_runs_one_waiting on analysis_runs (tenant_id) where status = 'Queued'`.execute(
    db,
  )
  await db.schema
    .createIndex('analysis_runs_queue')
    .on('analysis_runs')
    .columns(['status', 'requested_at', 'id'])
    .execute()
}
