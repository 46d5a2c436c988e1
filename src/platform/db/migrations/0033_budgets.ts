import type { Kysely } from 'kysely'

/**
 * Budgets: an amount per period over a scope (tenancies, and optionally tags, a resource group or a service), with
 * up to ten thresholds; and each threshold's state per period, so that it alarms once a period (latched: `Alarm`
 * since the day it crossed, back to `Ok` only in the next period).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('budgets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON: {tenancyIds, tags, resourceGroup, service}, the alert rules' scope.
    .addColumn('scope', 'text', (c) => c.notNull())
    // Monthly, Quarterly, Annually or Custom; `amount` for the first three, `periods` (JSON) for Custom.
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('amount', 'double precision')
    .addColumn('periods', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('cost_basis', 'text', (c) => c.notNull())
    // JSON: [{kind, value, basis}], at most ten.
    .addColumn('thresholds', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('budgets_by_name').on('budgets').columns(['organisation_id', 'name', 'id']).execute()
  await db.schema
    .createTable('budget_tenancies')
    .addColumn('budget_id', 'text', (c) => c.notNull().references('budgets.id').onDelete('cascade'))
    .addColumn('tenancy_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('budget_tenancies_pk', ['budget_id', 'tenancy_id'])
    .execute()
  await db.schema.createIndex('budget_tenancies_tenancy').on('budget_tenancies').columns(['tenancy_id']).execute()
  await db.schema
    .createTable('budget_threshold_states')
    .addColumn('budget_id', 'text', (c) => c.notNull().references('budgets.id').onDelete('cascade'))
    // The threshold's position in the budget's list, and the period it alarmed in (its first day).
    .addColumn('threshold_index', 'integer', (c) => c.notNull())
    .addColumn('period_from', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('budget_threshold_states_pk', ['budget_id', 'threshold_index', 'period_from'])
    .execute()
}
