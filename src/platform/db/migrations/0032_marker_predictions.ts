import type { Kysely } from 'kysely'

/**
 * A marker's predicted cost: the change in monthly cost an estimator (Infracost, or another) gave for the change
 * the marker records, with its currency, the estimator's name, and the commit and pull request it was made for.
 * All null when the marker has no prediction; `prediction_source` is set exactly when one is.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('prediction_monthly_delta', 'double precision').execute()
  await db.schema.alterTable('events').addColumn('prediction_currency', 'text').execute()
  await db.schema.alterTable('events').addColumn('prediction_source', 'text').execute()
  await db.schema.alterTable('events').addColumn('prediction_commit', 'text').execute()
  await db.schema.alterTable('events').addColumn('prediction_pull_request_url', 'text').execute()
}
