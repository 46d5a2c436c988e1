import type { Kysely } from 'kysely'

/**
 * Where a tenant's costs come from, and billing periods as the unit a file source replaces.
 *
 * - `tenants.cost_source`: `AzureConnector` (the connector's collections, every tenant before this), `FocusExport`
 *   (FOCUS files pulled from `location_json`, its secret sealed in `location_secret_sealed`) or `FocusUpload`
 *   (files pushed to the API). `provider`: the cloud the data names (AWS, Azure, GoogleCloud, Other), once known.
 * - `daily_costs.billing_period` (and the staged rows'): the FOCUS billing period (`YYYY-MM`) a row was billed in;
 *   '' for a connector's rows. Importing a period deletes the rows of its earlier version first.
 * - `cost_billing_periods`: per tenant and billing period, the days its rows fell on (what the next version must
 *   delete), the files it came from with their hashes or ETags (what a pull compares), its row count and run.
 * - `snapshot_runs.periods_json` / `conformance_json`: what an import replaced, and its FOCUS conformance counts.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('cost_source', 'text', (c) => c.notNull().defaultTo('AzureConnector'))
    .execute()
  await db.schema.alterTable('tenants').addColumn('provider', 'text').execute()
  await db.schema.alterTable('tenants').addColumn('location_json', 'text').execute()
  await db.schema.alterTable('tenants').addColumn('location_secret_sealed', 'text').execute()
  await db.schema
    .alterTable('daily_costs')
    .addColumn('billing_period', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .alterTable('cost_staging')
    .addColumn('billing_period', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .createTable('cost_billing_periods')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('billing_period', 'text', (c) => c.notNull())
    .addColumn('covered_from', 'text', (c) => c.notNull())
    .addColumn('covered_to', 'text', (c) => c.notNull())
    .addColumn('files_json', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cost_billing_periods_pk', ['tenant_id', 'billing_period'])
    .execute()
  await db.schema.alterTable('snapshot_runs').addColumn('periods_json', 'text').execute()
  await db.schema.alterTable('snapshot_runs').addColumn('conformance_json', 'text').execute()
}
