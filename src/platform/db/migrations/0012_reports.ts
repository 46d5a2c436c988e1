import { type Kysely, sql } from 'kysely'

/**
 * Report definitions, the tenancies each covers (none: the whole organisation), and report runs (the run row is
 * the job, as for snapshots). A run's files live in the blob store under keys derived from the run id.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull()) // JSON, validated by the kind
    .addColumn('organisation_wide', 'integer', (c) => c.notNull())
    .addColumn('schedule', 'text') // JSON { frequency, hourUtc, dayOfWeek?, dayOfMonth? } or null
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('reports_organisation_order')
    .on('reports')
    .columns(['organisation_id', 'name', 'id'])
    .execute()

  await db.schema
    .createTable('report_tenancies')
    .addColumn('report_id', 'text', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('tenancy_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addPrimaryKeyConstraint('report_tenancies_pk', ['report_id', 'tenancy_id'])
    .execute()

  await db.schema
    .createTable('report_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('report_id', 'text', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text') // a report run belongs to no single tenant: always null
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'text') // the period key of a scheduled run: one per report and period
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('row_count', 'integer')
    .addColumn('preview', 'text') // JSON { columns, rows (at most 10,000), truncated }
    .addColumn('files', 'text') // JSON list of the formats rendered into the blob store
    .addColumn('progress', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('not_before', 'text')
    .execute()
  await db.schema
    .createIndex('report_runs_report_order')
    .on('report_runs')
    .columns(['report_id', 'requested_at', 'id'])
    .execute()
  await db.schema.createIndex('report_runs_queue').on('report_runs').columns(['status', 'requested_at', 'id']).execute()
  // Many workers may schedule at once: the database keeps one run per report and period.
  await sql`create unique index report_runs_one_scheduled on report_runs (report_id, scheduled_for) where scheduled_for is not null`.execute(
    db,
  )
}
