import { type Kysely, sql } from 'kysely'
import type { SignedInUser } from '../../platform/auth/plugin.js'
import type { Database } from '../../platform/db/index.js'
import {
  activeUserWithRoles,
  enabledUser,
  markSignedIn,
  setPasswordOfEnabled,
  signInCandidates,
} from '../users/public.js'

/** A user who may sign in with this address: the account's state and password hash, never sent anywhere. */
export interface SignInCandidate {
  id: string
  organisationId: string
  email: string
  displayName: string | null
  isDisabled: boolean
  status: string
  passwordHash: string | null
}

/** Writes the audit entry of a change in the change's own transaction. */
export type AuditWrite = (trx: Kysely<Database>) => Promise<void>

/** The signed-in user behind a live session, with what their principal is made of. */
export interface SessionUser extends SignedInUser {
  lastSeenAt: string
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
      return signInCandidates(db, email)
    },

    /** Of these accounts, those the client address may not try now: locked by its own failures. */
    async lockedFor(userIds: string[], address: string, now: string): Promise<Set<string>> {
      if (userIds.length === 0) return new Set()
      const rows = await db
        .selectFrom('signInFailures')
        .select('userId')
        .where('userId', 'in', userIds)
        .where('address', '=', address)
        .where('lockedUntil', '>', now)
        .execute()
      return new Set(rows.map((r) => r.userId))
    },

    /**
     * Counts a failed sign-in of `address` on each account; from `lockAfter` failures in a row, that address is
     * locked out of that account until `lockedUntil`. A count whose lock has ended starts again from one. The
     * audit entries are written in the same transaction.
     */
    async recordFailures(
      userIds: string[],
      failure: { address: string; at: string; lockAfter: number; lockedUntil: string },
      audit: AuditWrite,
    ): Promise<void> {
      const { address, at } = failure
      await db.transaction().execute(async (tx) => {
        for (const userId of userIds) {
          await tx
            .insertInto('signInFailures')
            .values({ userId, address, failures: 1, lockedUntil: null, lastFailedAt: at })
            .onConflict((oc) =>
              oc.columns(['userId', 'address']).doUpdateSet((eb) => {
                const lockEnded = sql<boolean>`${eb.ref('signInFailures.lockedUntil')} is not null and ${eb.ref('signInFailures.lockedUntil')} <= ${at}`
                return {
                  failures: sql<number>`case when ${lockEnded} then 1 else ${eb.ref('signInFailures.failures')} + 1 end`,
                  lockedUntil: sql<
                    string | null
                  >`case when ${lockEnded} then null else ${eb.ref('signInFailures.lockedUntil')} end`,
                  lastFailedAt: at,
                }
              }),
            )
            .execute()
          await tx
            .updateTable('signInFailures')
            .set({ lockedUntil: failure.lockedUntil })
            .where('userId', '=', userId)
            .where('address', '=', address)
            .where('failures', '>=', failure.lockAfter)
            .where('lockedUntil', 'is', null)
            .execute()
        }
        await audit(tx)
      })
    },

    /**
     * Opens a session, in one transaction: the address's failed sign-ins on the account are forgotten, the user
     * marked seen, the password hash replaced by `rehash.to` when it is still `rehash.from` (stronger parameters),
     * and the audit entry written.
     */
    async signedIn(
      row: Database['sessions'],
      rehash: { from: string; to: string } | null,
      audit: AuditWrite,
    ): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('signInFailures')
          .where('userId', '=', row.userId)
          .where('address', '=', row.address ?? '')
          .execute()
        await markSignedIn(tx, row.userId, row.createdAt, rehash)
        await tx.insertInto('sessions').values(row).execute()
        await audit(tx)
      })
    },

    /**
     * The user of a live session (not expired, idle no longer than `idleSince` allows), read with their roles and
     * the organisation's cache version (the users store's one statement); null for an unknown, expired or idle
     * session, or a disabled or not yet active user's.
     */
    async sessionUser(idHash: string, now: string, idleSince: string): Promise<SessionUser | null> {
      const session = await db
        .selectFrom('sessions')
        .select(['userId', 'lastSeenAt', 'expiresAt'])
        .where('idHash', '=', idHash)
        .where('expiresAt', '>', now)
        .where('lastSeenAt', '>', idleSince)
        .executeTakeFirst()
      if (!session) return null
      const user = await activeUserWithRoles(db, session.userId)
      return user && { ...user, lastSeenAt: session.lastSeenAt, expiresAt: session.expiresAt }
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

    /**
     * Sessions past their lifetime or idle limit, and failed sign-in counts last added to before `idleSince`
     * whose lock (if any) has ended, deleted; returns the sessions' count.
     */
    async deleteExpired(now: string, idleSince: string): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('lastSeenAt', '<=', idleSince)]))
        .executeTakeFirst()
      await db
        .deleteFrom('signInFailures')
        .where('lastFailedAt', '<=', idleSince)
        .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', now)]))
        .execute()
      return Number(result.numDeletedRows)
    },

    /** How many reset links were made for the user since `since` (the per-account limit of reset requests). */
    async resetsSince(userId: string, since: string): Promise<number> {
      const row = await db
        .selectFrom('passwordResets')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('userId', '=', userId)
        .where('createdAt', '>', since)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },

    /**
     * In one transaction: the user's earlier links stop working (one live link per user), the new one is stored,
     * its e-mail queued (`queueMail`, returning the mail's id, when it is mailed) and the audit entry written.
     */
    async createReset(
      row: Omit<Database['passwordResets'], 'usedAt'>,
      queueMail: ((trx: Kysely<Database>) => Promise<string>) | null,
      audit: AuditWrite | null,
    ): Promise<string | null> {
      return db.transaction().execute(async (tx) => {
        await tx
          .updateTable('passwordResets')
          .set({ usedAt: row.createdAt })
          .where('userId', '=', row.userId)
          .where('usedAt', 'is', null)
          .execute()
        await tx.insertInto('passwordResets').values(row).execute()
        const mailId = queueMail ? await queueMail(tx) : null
        await audit?.(tx)
        return mailId
      })
    },

    /** Writes audit entries alone, in a transaction of their own (a refused reset request changes nothing else). */
    async audit(write: AuditWrite): Promise<void> {
      await db.transaction().execute(write)
    },

    /** The account of a reset link that still works (unused, unexpired, its user not disabled), or null. */
    async liveReset(
      tokenHash: string,
      now: string,
    ): Promise<{ userId: string; organisationId: string; email: string } | null> {
      const reset = await db
        .selectFrom('passwordResets')
        .select('userId')
        .where('tokenHash', '=', tokenHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst()
      return reset ? enabledUser(db, reset.userId) : null
    },

    /**
     * Uses a reset link once: in one transaction, marks it used (only if unused and unexpired), sets the password,
     * clears the failed sign-ins, ends every session of the user and writes the audit entry. Null when the link is
     * unknown, used or expired.
     */
    async useReset(
      tokenHash: string,
      now: string,
      passwordHash: string,
      audit: (trx: Kysely<Database>, user: { userId: string; organisationId: string; email: string }) => Promise<void>,
    ): Promise<{ userId: string } | null> {
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
        const user = await setPasswordOfEnabled(tx, used.userId, passwordHash)
        if (!user) return null
        // Other links of the user die with this one: a reset is the end of every earlier one.
        await tx
          .updateTable('passwordResets')
          .set({ usedAt: now })
          .where('userId', '=', used.userId)
          .where('usedAt', 'is', null)
          .execute()
        await tx.deleteFrom('sessions').where('userId', '=', used.userId).execute()
        await tx.deleteFrom('signInFailures').where('userId', '=', used.userId).execute()
        await audit(tx, user)
        return { userId: used.userId }
      })
    },
  }
}
export type SessionStore = ReturnType<typeof createSessionStore>
