import type { Kysely } from 'kysely'

/**
 * An anomaly is an episode: its last day (null while it goes on), its expected and actual spend and its impact over
 * all its days, and its largest day. Anomalies one root cause explains share an incident (`incident_id`, the id of
 * the anomaly heading it). A person's feedback (Expected, NotAnAnomaly, Confirmed) sits beside the status.
 *
 * Rows written before this migration were single days: each is its own one-day episode and its own incident.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  const columns: [string, 'text' | 'double precision' | 'integer'][] = [
    ['episode_end', 'text'],
    ['ongoing', 'integer'],
    ['episode_expected_cost', 'double precision'],
    ['episode_actual_cost', 'double precision'],
    ['total_impact', 'double precision'],
    ['max_impact', 'double precision'],
    ['incident_id', 'text'],
    ['feedback', 'text'],
    ['feedback_at', 'text'],
    ['feedback_by_type', 'text'],
    ['feedback_by_id', 'text'],
    ['feedback_by_name', 'text'],
  ]
  for (const [name, type] of columns) {
    await db.schema
      .alterTable('anomalies')
      .addColumn(name, type, (c) => (name === 'ongoing' ? c.notNull().defaultTo(0) : c))
      .execute()
  }
  await db
    .updateTable('anomalies')
    .set((eb) => ({
      episode_end: eb.ref('date_raised'),
      episode_expected_cost: eb.ref('expected_cost'),
      episode_actual_cost: eb.ref('actual_cost'),
      total_impact: eb.ref('impact'),
      max_impact: eb.ref('impact'),
      incident_id: eb.ref('id'),
    }))
    .execute()
  await db.schema.createIndex('anomalies_incident').on('anomalies').columns(['tenant_id', 'incident_id']).execute()
}
