import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'

// Reads of the channels lent to other features (the alert rules), apart from store.ts so that the public entry that
// carries them loads no database driver.

/** Of these channel ids, those that are channels of the organisation, with their name, type and whether enabled. */
export async function channelsOf(db: Kysely<Database>, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  const rows = await db
    .selectFrom('notificationChannels')
    .select(['id', 'name', 'type', 'enabled'])
    .where('organisationId', '=', organisationId)
    .where('id', 'in', [...ids])
    .execute()
  return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, enabled: r.enabled === 1 }))
}
