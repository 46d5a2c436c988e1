import { type Kysely, sql } from 'kysely'

/**
 * What each source of a tenant's costs has covered and settled: `source` is the connector of its collections
 * (`azure`, `simulated`) or `focus` for imports of FOCUS files; `covered_from`/`covered_to` the first and last days
 * it wrote; `settled_through` the last day it will no longer restate (the connector's newest days, or an import's
 * days after its newest complete day, are still preliminary). Anomaly detection judges only days every recently
 * active source has settled; charts mark the later ones as preliminary.
 *
 * Filled from the successful snapshot runs and imports before it, with the default settling windows (a
 * collection's newest 2 days, an import's newest day).
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
  const runs: { tenantId: string; source: string; from: string; to: string }[] = await db
    .selectFrom('snapshot_runs as r')
    .innerJoin('tenants as t', 't.id', 'r.tenant_id')
    .select([
      'r.tenant_id as tenantId',
      sql<string>`case when r.trigger = 'Import' then 'focus' else t.connector end`.as('source'),
      sql<string>`min(r.period_start)`.as('from'),
      sql<string>`max(r.period_end)`.as('to'),
    ])
    .where('r.status', '=', 'Succeeded')
    .where('r.period_start', 'is not', null)
    .where('r.period_end', 'is not', null)
    .groupBy(['r.tenant_id', sql`case when r.trigger = 'Import' then 'focus' else t.connector end`])
    .execute()
  const at = new Date().toISOString()
  const dayBefore = (day: string, n: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)
  for (const r of runs)
    await db
      .insertInto('cost_coverage')
      .values({
        tenant_id: r.tenantId,
        source: r.source,
        covered_from: r.from,
        covered_to: r.to,
        settled_through: dayBefore(r.to, r.source === 'focus' ? 1 : 2),
        updated_at: at,
      })
      .execute()
}
