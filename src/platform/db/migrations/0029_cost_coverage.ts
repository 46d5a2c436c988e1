import type { Kysely } from 'kysely'

/**
 * What each source of a tenant's costs has covered and settled: `source` is the connector of its collections
 * (`azure`, `simulated`) or `focus` for imports of FOCUS files; `covered_from`/`covered_to` the first and last days
 * it wrote; `settled_through` the last day it will no longer restate (the connector's newest days, or an import's
 * days after its newest complete day, are still preliminary). Anomaly detection judges only days every recently
 * active source has settled; charts mark the later ones as preliminary.
 *
 * Nothing is known of costs written before this migration: a tenant's days count as settled until a source records
 * its coverage.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cost_coverage')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('covered_from', 'text', (c) => c.notNull())
    .addColumn('covered_to', 'text', (c) => c.notNull())
    .addColumn('settled_through', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cost_coverage_pk', ['tenant_id', 'source'])
    .execute()
}
