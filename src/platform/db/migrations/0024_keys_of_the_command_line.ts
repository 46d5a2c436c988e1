import { type Kysely, sql } from 'kysely'

/**
 * A key made by a user in the web interface acts within that user's current rights; a key made on the command
 * line keeps its own scope. `org create` recorded the first key of an organisation as made by its owner: every
 * key said to be a user's without the audit row of a creation over HTTP (whose origin is a client address, not
 * `cli`) was made on the command line, and now says so.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update api_keys set created_by_type = 'System', created_by_id = null, created_by_name = 'command line'
    where created_by_type = 'User' and id not in (
      select target_id from audit_log where action = 'apiKey.created' and target_type = 'ApiKey' and origin <> 'cli'
    )`.execute(db)
}
