import type { Kysely } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import { readCount } from '../../platform/db/counters.js'
import type { Database } from '../../platform/db/index.js'
import { tenantCounter } from '../tenants/counters.js'

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
      if (visible === 'all') return readCount(db, tenantCounter(organisationId))
      if (visible.length === 0) return 0 // a principal with no tenancy (PostgreSQL refuses `in ()`)
      const row = await db
        .selectFrom('tenants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organisationId', '=', organisationId)
        .where('id', 'in', visible)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
  }
}
export type OrganisationStore = ReturnType<typeof createOrganisationStore>
