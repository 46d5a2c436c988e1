import { type Kysely, sql } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import type { Database } from '../../platform/db/index.js'
import { visibleTenancyCount } from '../tenants/public.js'

/**
 * Serialises changes of one organisation's members: the first statement of the caller's transaction writes the
 * organisation's row, so a second transaction waits for the first to commit (PostgreSQL: the row lock; SQLite:
 * the write lock, taken before anything is read). A last-owner check that follows reads committed state.
 */
export async function lockOrganisation(trx: Kysely<Database>, organisationId: string): Promise<void> {
  await trx.updateTable('organisations').set({ id: sql`id` }).where('id', '=', organisationId).execute()
}

export function createOrganisationStore(db: Kysely<Database>) {
  return {
    async insert(
      row: { id: string; name: string; plan: string; createdAt: string },
      trx: Kysely<Database> = db,
    ): Promise<void> {
      await trx.insertInto('organisations').values(row).execute()
    },
    async get(id: string) {
      return (
        (await db.selectFrom('organisations').select(['id', 'name', 'plan']).where('id', '=', id).executeTakeFirst()) ??
        null
      )
    },
    async any(): Promise<boolean> {
      return (await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst()) !== undefined
    },
    /** Whether the server holds this organisation and no other. */
    async isOnly(id: string): Promise<boolean> {
      const rows = await db.selectFrom('organisations').select('id').orderBy('id').limit(2).execute()
      return rows.length === 1 && rows[0]!.id === id
    },
    async tenancyCount(organisationId: string, visible: Visibility): Promise<number> {
      return visibleTenancyCount(db, organisationId, visible)
    },
  }
}
export type OrganisationStore = ReturnType<typeof createOrganisationStore>
