import { type Kysely, sql } from 'kysely'

/**
 * What each report run covers, recorded when it is queued: the whole organisation (`organisation_wide`), or its
 * tenancies (`report_run_tenancies`). A run's rows and files are read by who may see those tenancies, not the
 * report's current ones, which an owner may change after the run.
 *
 * Runs made before this migration get the report's tenancies as they are now: what they covered when they ran
 * was not recorded.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('report_runs')
    .addColumn('organisation_wide', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // No reference to tenants: a run keeps what it covered, whatever becomes of the tenancies.
  await db.schema
    .createTable('report_run_tenancies')
    .addColumn('run_id', 'text', (c) => c.notNull().references('report_runs.id').onDelete('cascade'))
    .addColumn('tenancy_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_run_tenancies_pk', ['run_id', 'tenancy_id'])
    .execute()
  await sql`
    update report_runs set organisation_wide = (select r.organisation_wide from reports r where r.id = report_runs.report_id)
  `.execute(db)
  await sql`
    insert into report_run_tenancies (run_id, tenancy_id)
    select rr.id, rt.tenancy_id
    from report_runs rr join reports r on r.id = rr.report_id join report_tenancies rt on rt.report_id = r.id
    where r.organisation_wide = 0
  `.execute(db)
}
