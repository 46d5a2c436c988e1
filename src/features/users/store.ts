import type { Insertable, Kysely, Selectable } from 'kysely'
import type { TenancyRole } from '../../platform/auth/principal.js'
import type { Database } from '../../platform/db/index.js'
import type { UsersTable } from '../../platform/db/schema.js'
import type { UserRecord } from './schemas.js'

type UserRow = Omit<Selectable<UsersTable>, 'passwordHash' | 'failedSignIns' | 'signInLockedUntil'>

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    isOwner: row.isOwner === 1,
    isDisabled: row.isDisabled === 1,
    status: row.status as UserRecord['status'],
    invitedAt: row.invitedAt,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
  }
}

export function createUserStore(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<UsersTable> & UserRow, trx: Kysely<Database> = db): Promise<UserRecord> {
      await trx.insertInto('users').values(row).execute()
      return toRecord(row)
    },
    async get(organisationId: string, id: string): Promise<UserRecord | null> {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('organisationId', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toRecord(row) : null
    },
    async organisationOf(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('organisationId').where('id', '=', userId).executeTakeFirst()
      return row?.organisationId ?? null
    },
    /** Gives (or changes) a member's role on a tenancy. */
    async grant(tenancyId: string, userId: string, role: TenancyRole): Promise<void> {
      await db
        .insertInto('tenancyRoles')
        .values({ tenancyId, userId, role })
        .onConflict((oc) => oc.columns(['tenancyId', 'userId']).doUpdateSet({ role }))
        .execute()
    },
  }
}
export type UserStore = ReturnType<typeof createUserStore>
