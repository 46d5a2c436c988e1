import type { Kysely } from 'kysely'
import type { TenancyRole } from '../../platform/auth/principal.js'
import { versionOf } from '../../platform/cache.js'
import type { Database } from '../../platform/db/index.js'

/** A user who may sign in with this address: the account's state and password hash, never sent anywhere. */
export interface SignInCandidate {
  id: string
  organisationId: string
  email: string
  displayName: string | null
  isDisabled: boolean
  status: string
  passwordHash: string | null
  failedSignIns: number
  signInLockedUntil: string | null
}

/** The signed-in user behind a live session, with what their principal is made of. */
export interface SessionUser {
  userId: string
  organisationId: string
  email: string
  displayName: string | null
  isOwner: boolean
  tenancyRoles: Map<string, TenancyRole>
  lastSeenAt: string
  expiresAt: string
  cacheVersion: number
}

/**
 * Ends every session of a user in the caller's transaction: a user disabled or no longer an owner signs in again,
 * and re-enabling them brings no old cookie back.
 */
export async function endSessionsOf(trx: Kysely<Database>, userId: string): Promise<void> {
  await trx.deleteFrom('sessions').where('userId', '=', userId).execute()
}

/** Sessions, password reset links and the sign-in state of users: everything sign-in reads and writes. */
export function createSessionStore(db: Kysely<Database>) {
  return {
    /** Every account with this address (its lower-cased key), in any organisation. */
    async candidates(email: string): Promise<SignInCandidate[]> {
      const rows = await db
        .selectFrom('users')
        .select([
          'id',
          'organisationId',
          'email',
          'displayName',
          'isDisabled',
          'status',
          'passwordHash',
          'failedSignIns',
          'signInLockedUntil',
        ])
        .where('emailKey', '=', email)
        .orderBy('createdAt')
        .execute()
      return rows.map((r) => ({ ...r, isDisabled: r.isDisabled === 1 }))
    },

    /** Counts a failed sign-in; from `lockAfter` failures in a row, the account is locked until `lockedUntil`. */
    async recordFailure(userId: string, lockAfter: number, lockedUntil: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const row = await tx
          .updateTable('users')
          .set((eb) => ({ failedSignIns: eb('failedSignIns', '+', 1) }))
          .where('id', '=', userId)
          .returning('failedSignIns')
          .executeTakeFirst()
        if (row && row.failedSignIns >= lockAfter)
          await tx.updateTable('users').set({ signInLockedUntil: lockedUntil }).where('id', '=', userId).execute()
      })
    },

    async clearFailures(userId: string, at: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ failedSignIns: 0, signInLockedUntil: null, lastSeenAt: at })
        .where('id', '=', userId)
        .execute()
    },

    async insertSession(row: Database['sessions']): Promise<void> {
      await db.insertInto('sessions').values(row).execute()
    },

    /**
     * The user of a live session (not expired, idle no longer than `idleSince` allows), read with their roles and
     * the organisation's cache version; null for an unknown, expired or idle session, or a disabled user's.
     */
    async sessionUser(idHash: string, now: string, idleSince: string): Promise<SessionUser | null> {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.userId')
        .select((eb) => [
          'users.id as userId',
          'users.organisationId',
          'users.email',
          'users.displayName',
          'users.isOwner',
          'sessions.lastSeenAt',
          'sessions.expiresAt',
          versionOf(eb.ref('users.organisationId')).as('cacheVersion'),
        ])
        .where('sessions.idHash', '=', idHash)
        .where('sessions.expiresAt', '>', now)
        .where('sessions.lastSeenAt', '>', idleSince)
        .where('users.isDisabled', '=', 0)
        .where('users.status', '=', 'Active')
        .executeTakeFirst()
      if (!row) return null
      const roles = await db
        .selectFrom('tenancyRoles')
        .select(['tenancyId', 'role'])
        .where('userId', '=', row.userId)
        .execute()
      return {
        ...row,
        isOwner: row.isOwner === 1,
        tenancyRoles: new Map(roles.map((r) => [r.tenancyId, r.role as TenancyRole])),
        cacheVersion: Number(row.cacheVersion ?? 0),
      }
    },

    /** Marks the session used now (sliding its idle limit), when it was last marked before `staleBefore`. */
    async touchSession(idHash: string, at: string, staleBefore: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ lastSeenAt: at })
        .where('idHash', '=', idHash)
        .where('lastSeenAt', '<', staleBefore)
        .execute()
    },

    async deleteSession(idHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('idHash', '=', idHash).execute()
    },

    /** Ends every session of a user (disabled, or a new password). */
    async deleteSessionsOf(userId: string, trx: Kysely<Database> = db): Promise<void> {
      await endSessionsOf(trx, userId)
    },

    async deleteExpired(now: string, idleSince: string): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('lastSeenAt', '<=', idleSince)]))
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    /** Stores a reset link and queues its e-mail (`queueMail`, returning the mail's id) in one transaction. */
    async createReset(
      row: Omit<Database['passwordResets'], 'usedAt'>,
      queueMail: (trx: Kysely<Database>) => Promise<string>,
    ): Promise<string> {
      return db.transaction().execute(async (tx) => {
        await tx.insertInto('passwordResets').values(row).execute()
        return queueMail(tx)
      })
    },

    /** The address of a reset link that still works (unused, unexpired), or null. */
    async resetEmail(tokenHash: string, now: string): Promise<string | null> {
      const row = await db
        .selectFrom('passwordResets')
        .innerJoin('users', 'users.id', 'passwordResets.userId')
        .select('users.email')
        .where('passwordResets.tokenHash', '=', tokenHash)
        .where('passwordResets.usedAt', 'is', null)
        .where('passwordResets.expiresAt', '>', now)
        .where('users.isDisabled', '=', 0)
        .executeTakeFirst()
      return row?.email ?? null
    },

    /**
     * Uses a reset link once: in one transaction, marks it used (only if unused and unexpired), sets the password,
     * clears the failed sign-ins and ends every session of the user. Null when the link is unknown, used or expired.
     */
    async useReset(tokenHash: string, now: string, passwordHash: string): Promise<{ userId: string } | null> {
      return db.transaction().execute(async (tx) => {
        const used = await tx
          .updateTable('passwordResets')
          .set({ usedAt: now })
          .where('tokenHash', '=', tokenHash)
          .where('usedAt', 'is', null)
          .where('expiresAt', '>', now)
          .returning('userId')
          .executeTakeFirst()
        if (!used) return null
        const user = await tx
          .updateTable('users')
          .set({ passwordHash, failedSignIns: 0, signInLockedUntil: null })
          .where('id', '=', used.userId)
          .where('isDisabled', '=', 0)
          .returning('id')
          .executeTakeFirst()
        if (!user) return null
        // Other links of the user die with this one: a reset is the end of every earlier one.
        await tx
          .updateTable('passwordResets')
          .set({ usedAt: now })
          .where('userId', '=', used.userId)
          .where('usedAt', 'is', null)
          .execute()
        await tx.deleteFrom('sessions').where('userId', '=', used.userId).execute()
        return { userId: used.userId }
      })
    },
  }
}
export type SessionStore = ReturnType<typeof createSessionStore>
