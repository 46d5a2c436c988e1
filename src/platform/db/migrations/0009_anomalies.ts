import type { Kysely } from 'kysely'

/**
 * Anomalies: one row per (tenant, scope, day raised), upserted by every analysis run over its days, so a re-run
 * updates the numbers of the row it wrote before instead of adding one. `status` and `status_changed_*` belong to
 * people: detection never writes them after the insert. `organisation_id` is the tenant's, kept on the row so the
 * organisation-wide list filters and orders on one index.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('anomalies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    // The natural key of the scope: `tenant`, `subscription:{id}`, `resourceGroup:{subscription}/{name lower}`,
    // `service:{name}` or `resource:{lower-cased ARM id}`.
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('scope_kind', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text')
    .addColumn('resource_group_name', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('service_name', 'text')
    .addColumn('date_raised', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expected_cost', 'double precision', (c) => c.notNull())
    .addColumn('actual_cost', 'double precision', (c) => c.notNull())
    .addColumn('impact', 'double precision', (c) => c.notNull())
    .addColumn('impact_percent', 'double precision', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('drivers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('detected_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('status_changed_at', 'text')
    .addColumn('status_changed_by_type', 'text')
    .addColumn('status_changed_by_id', 'text')
    .addColumn('status_changed_by_name', 'text')
    .execute()
  await db.schema
    .createIndex('anomalies_natural_key')
    .on('anomalies')
    .columns(['tenant_id', 'scope_key', 'date_raised'])
    .unique()
    .execute()
  // The list order (newest dateRaised first, id last) for an organisation, and for one tenancy.
  await db.schema
    .createIndex('anomalies_organisation_date')
    .on('anomalies')
    .columns(['organisation_id', 'date_raised desc', 'id desc'])
    .execute()
  await db.schema
    .createIndex('anomalies_tenant_date')
    .on('anomalies')
    .columns(['tenant_id', 'date_raised desc', 'id desc'])
    .execute()
}
