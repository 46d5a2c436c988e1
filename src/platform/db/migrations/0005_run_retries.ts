import type { Kysely } from 'kysely'

/**
 * A failed attempt that may be retried goes back to Queued with `not_before`: no worker claims it earlier, so
 * attempts are spaced out (see src/platform/runs/store.ts). Null for a run that may start at once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('snapshot_runs').addColumn('not_before', 'text').execute()
}
