import type { Kysely, Selectable } from 'kysely'
import type { TenancyRole } from '../../platform/auth/principal.js'
import { versionOf } from '../../platform/cache.js'
import { type Database, prepared } from '../../platform/db/index.js'
import type { UsersTable } from '../../platform/db/schema.js'
import { offsetOf, type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import { lockOrganisation } from '../organisation/public.js'
import type { MemberRole, TenancyUserRecord, UserRecord, UserStatus } from './schemas.js'

/** The membership's columns; sign-in's own (failed attempts, lock) belong to the session feature. */
type UserRow = Omit<Selectable<UsersTable>, 'failedSignIns' | 'signInLockedUntil'>
/** A new user's columns; `emailKey` is derived here, so no caller can get it wrong. */
export type NewUser = Omit<UserRow, 'emailKey' | 'passwordHash'>

/** The form of an address that is compared: one address is one member, whatever its letter case. */
export const emailKeyOf = (email: string) => email.trim().toLowerCase()

/** What the service needs of a user to decide (who the user is, and whether they count as an active owner). */
export interface UserState {
  id: string
  organisationId: string
  email: string
  displayName: string | null
  isOwner: boolean
  isDisabled: boolean
  /** The membership's own state; the record says Disabled while `isDisabled`. */
  status: 'Invited' | 'Active'
}

export function toUserRecord(row: Omit<UserRow, 'emailKey' | 'passwordHash'>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    isOwner: row.isOwner === 1,
    isDisabled: row.isDisabled === 1,
    status: (row.isDisabled === 1 ? 'Disabled' : row.status) as UserStatus,
    invitedAt: row.invitedAt,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
  }
}

function toState(
  row: Pick<UserRow, 'id' | 'organisationId' | 'email' | 'displayName' | 'isOwner' | 'isDisabled' | 'status'>,
): UserState {
  return {
    id: row.id,
    organisationId: row.organisationId,
    email: row.email,
    displayName: row.displayName,
    isOwner: row.isOwner === 1,
    isDisabled: row.isDisabled === 1,
    status: row.status as UserState['status'],
  }
}

const RECORD_COLUMNS = [
  'id',
  'organisationId',
  'email',
  'displayName',
  'isOwner',
  'isDisabled',
  'status',
  'invitedAt',
  'createdAt',
  'lastSeenAt',
] as const

export interface InvitationState {
  userId: string
  organisationId: string
  email: string
  displayName: string | null
  expiresAt: string
  usedAt: string | null
  replacedAt: string | null
  userStatus: string
  userDisabled: boolean
}

export function createUserStore(db: Kysely<Database>) {
  // Read on every request of a key a user created (see `principalOf` in the service), so compiled once: the user
  // and their roles in one statement, by the primary key and the roles' user index.
  const userWithRoles = prepared(db, (a: { id: string }) =>
    db
      .selectFrom('users')
      .leftJoin('tenancyRoles', 'tenancyRoles.userId', 'users.id')
      .select([
        'users.id',
        'users.organisationId',
        'users.email',
        'users.displayName',
        'users.isOwner',
        'users.isDisabled',
        'users.status',
        'tenancyRoles.tenancyId',
        'tenancyRoles.role',
      ])
      .where('users.id', '=', a.id),
  )

  return {
    transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work)
    },

    /** Serialises changes of one organisation's users (see the organisation store's `lockOrganisation`). */
    lockOrganisation,

    async insert(row: NewUser, trx: Kysely<Database> = db): Promise<UserRecord> {
      await trx
        .insertInto('users')
        .values({ ...row, emailKey: emailKeyOf(row.email), passwordHash: null })
        .execute()
      return toUserRecord(row)
    },

    async get(organisationId: string, id: string, trx: Kysely<Database> = db): Promise<UserRecord | null> {
      const row = await trx
        .selectFrom('users')
        .select(RECORD_COLUMNS)
        .where('organisationId', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toUserRecord(row) : null
    },

    async state(organisationId: string, id: string, trx: Kysely<Database> = db): Promise<UserState | null> {
      const row = await trx
        .selectFrom('users')
        .selectAll()
        .where('organisationId', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toState(row) : null
    },

    async idOfEmail(organisationId: string, email: string, trx: Kysely<Database> = db): Promise<string | null> {
      const row = await trx
        .selectFrom('users')
        .select('id')
        .where('organisationId', '=', organisationId)
        .where('emailKey', '=', emailKeyOf(email))
        .executeTakeFirst()
      return row?.id ?? null
    },

    /**
     * The organisation's users, by address (id last). An organisation has tens or hundreds of users, not the
     * hundred thousand rows where COUNT(*) costs (performance.md), so the total is counted.
     */
    async list(organisationId: string, paging: Paging): Promise<PageOf<UserRecord>> {
      const inOrg = db.selectFrom('users').where('organisationId', '=', organisationId)
      const [rows, total] = await Promise.all([
        inOrg
          .select(RECORD_COLUMNS)
          .orderBy('emailKey')
          .orderBy('id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        inOrg.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return pageOf(rows.map(toUserRecord), Number(total.n), paging)
    },

    /** Users with a role on the tenancy, and the owners (Admin of every tenancy), by address (id last). */
    async listOfTenancy(organisationId: string, tenancyId: string, paging: Paging): Promise<PageOf<TenancyUserRecord>> {
      const members = db
        .selectFrom('users')
        .leftJoin('tenancyRoles', (join) =>
          join.onRef('tenancyRoles.userId', '=', 'users.id').on('tenancyRoles.tenancyId', '=', tenancyId),
        )
        .where('users.organisationId', '=', organisationId)
        .where((eb) => eb.or([eb('users.isOwner', '=', 1), eb('tenancyRoles.role', 'is not', null)]))
      const [rows, total] = await Promise.all([
        members
          .select(['users.id', 'users.email', 'users.displayName', 'users.isOwner', 'tenancyRoles.role'])
          .orderBy('users.emailKey')
          .orderBy('users.id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        members.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return pageOf(
        rows.map((r) => toTenancyUser(r, r.role as TenancyRole | null)),
        Number(total.n),
        paging,
      )
    },

    async tenancyUser(
      tenancyId: string,
      userId: string,
      trx: Kysely<Database> = db,
    ): Promise<TenancyUserRecord | null> {
      const row = await trx
        .selectFrom('users')
        .leftJoin('tenancyRoles', (join) =>
          join.onRef('tenancyRoles.userId', '=', 'users.id').on('tenancyRoles.tenancyId', '=', tenancyId),
        )
        .select(['users.id', 'users.email', 'users.displayName', 'users.isOwner', 'tenancyRoles.role'])
        .where('users.id', '=', userId)
        .executeTakeFirst()
      if (!row || (row.isOwner !== 1 && row.role === null)) return null
      return toTenancyUser(row, row.role as TenancyRole | null)
    },

    /** Active, enabled owners other than `exceptUserId`: who would still manage the organisation. */
    async otherActiveOwners(trx: Kysely<Database>, organisationId: string, exceptUserId: string): Promise<number> {
      const row = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organisationId', '=', organisationId)
        .where('isOwner', '=', 1)
        .where('isDisabled', '=', 0)
        .where('status', '=', 'Active')
        .where('id', '<>', exceptUserId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    /**
     * Users of the organisation by id (those of `userIds`, or its owners with `owners`), with their state: who may
     * receive a notification's e-mail. Ids of another organisation are left out.
     */
    async contacts(
      organisationId: string,
      which: { userIds: string[] } | { owners: true },
      trx: Kysely<Database> = db,
    ): Promise<UserState[]> {
      if ('userIds' in which && which.userIds.length === 0) return []
      const rows = await trx
        .selectFrom('users')
        .select(['id', 'organisationId', 'email', 'displayName', 'isOwner', 'isDisabled', 'status'])
        .where('organisationId', '=', organisationId)
        .$if('userIds' in which, (qb) => qb.where('id', 'in', (which as { userIds: string[] }).userIds))
        .$if('owners' in which, (qb) => qb.where('isOwner', '=', 1))
        .orderBy('emailKey')
        .orderBy('id')
        .execute()
      return rows.map(toState)
    },

    async update(
      trx: Kysely<Database>,
      id: string,
      changes: Partial<Pick<UserRow, 'displayName' | 'isOwner' | 'isDisabled' | 'invitedAt'>>,
    ): Promise<void> {
      if (Object.keys(changes).length === 0) return
      await trx.updateTable('users').set(changes).where('id', '=', id).execute()
    },

    async organisationOf(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('organisationId').where('id', '=', userId).executeTakeFirst()
      return row?.organisationId ?? null
    },

    /** The user (of any organisation) with the tenancy roles they hold, in one read; null for an unknown id. */
    async stateWithRoles(
      id: string,
    ): Promise<{ user: UserState; roles: { tenancyId: string; role: TenancyRole }[] } | null> {
      const rows = await userWithRoles({ id })
      const first = rows[0]
      if (!first) return null
      const user = toState(first)
      const roles = rows.flatMap((r) =>
        r.tenancyId === null ? [] : [{ tenancyId: r.tenancyId, role: r.role as TenancyRole }],
      )
      return { user, roles }
    },

    /** The addresses of these users, by id. */
    async emailsOf(ids: string[], trx: Kysely<Database> = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map()
      const rows = await trx.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute()
      return new Map(rows.map((r) => [r.id, r.email]))
    },

    /** Every tenancy role held in the organisation (owners hold none: they are Admin of every tenancy). */
    async rolesInOrganisation(organisationId: string): Promise<MemberRole[]> {
      const rows = await db
        .selectFrom('tenancyRoles')
        .innerJoin('users', 'users.id', 'tenancyRoles.userId')
        .select(['tenancyRoles.userId', 'tenancyRoles.tenancyId', 'tenancyRoles.role'])
        .where('users.organisationId', '=', organisationId)
        .orderBy('tenancyRoles.userId')
        .orderBy('tenancyRoles.tenancyId')
        .execute()
      return rows.map((r) => ({ userId: r.userId, tenancyId: r.tenancyId, role: r.role as TenancyRole }))
    },

    /** Gives (or changes) a member's role on a tenancy; returns the role held before, if any. */
    async grant(trx: Kysely<Database>, tenancyId: string, userId: string, role: TenancyRole) {
      const before = await trx
        .selectFrom('tenancyRoles')
        .select('role')
        .where('tenancyId', '=', tenancyId)
        .where('userId', '=', userId)
        .executeTakeFirst()
      await trx
        .insertInto('tenancyRoles')
        .values({ tenancyId, userId, role })
        .onConflict((oc) => oc.columns(['tenancyId', 'userId']).doUpdateSet({ role }))
        .execute()
      return (before?.role as TenancyRole | undefined) ?? null
    },

    /** Removes a member's role on a tenancy; returns the role removed, or null when there was none. */
    async revokeRole(trx: Kysely<Database>, tenancyId: string, userId: string): Promise<TenancyRole | null> {
      const removed = await trx
        .deleteFrom('tenancyRoles')
        .where('tenancyId', '=', tenancyId)
        .where('userId', '=', userId)
        .returning('role')
        .executeTakeFirst()
      return (removed?.role as TenancyRole | undefined) ?? null
    },

    /** A new link for the user; the links sent before stop working. */
    async replaceInvitation(
      trx: Kysely<Database>,
      invitation: { tokenHash: string; userId: string; createdAt: string; expiresAt: string },
    ): Promise<void> {
      await trx
        .updateTable('invitations')
        .set({ replacedAt: invitation.createdAt })
        .where('userId', '=', invitation.userId)
        .where('usedAt', 'is', null)
        .where('replacedAt', 'is', null)
        .execute()
      await trx
        .insertInto('invitations')
        .values({ ...invitation, usedAt: null, replacedAt: null })
        .execute()
    },

    async invitation(tokenHash: string): Promise<InvitationState | null> {
      const row = await db
        .selectFrom('invitations')
        .innerJoin('users', 'users.id', 'invitations.userId')
        .select([
          'invitations.userId',
          'users.organisationId',
          'users.email',
          'users.displayName',
          'invitations.expiresAt',
          'invitations.usedAt',
          'invitations.replacedAt',
          'users.status as userStatus',
          'users.isDisabled',
        ])
        .where('invitations.tokenHash', '=', tokenHash)
        .executeTakeFirst()
      if (!row) return null
      const { isDisabled, ...rest } = row
      return { ...rest, userDisabled: isDisabled === 1 }
    },

    /**
     * Uses the link: one conditional update, so of two requests racing with the same link only one gets true.
     * Only a link that is unused, not replaced and not expired at `now`.
     */
    async useInvitation(trx: Kysely<Database>, tokenHash: string, now: string): Promise<boolean> {
      const result = await trx
        .updateTable('invitations')
        .set({ usedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('usedAt', 'is', null)
        .where('replacedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** An invited, enabled user becomes Active with a name and a password; false when the user is neither. */
    async activate(trx: Kysely<Database>, userId: string, displayName: string, passwordHash: string) {
      const result = await trx
        .updateTable('users')
        .set({ displayName, passwordHash, status: 'Active' })
        .where('id', '=', userId)
        .where('status', '=', 'Invited')
        .where('isDisabled', '=', 0)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },
  }
}
export type UserStore = ReturnType<typeof createUserStore>

function toTenancyUser(
  row: { id: string; email: string; displayName: string | null; isOwner: number },
  role: TenancyRole | null,
): TenancyUserRecord {
  const isOwner = row.isOwner === 1
  return { userId: row.id, email: row.email, displayName: row.displayName, role: isOwner ? 'Admin' : role!, isOwner }
}

/*
 * What sign-in reads and writes of users (the session feature's sessions, failed sign-ins and reset links hold
 * user ids): functions taking the caller's connection or transaction, so a session opened or a password reset is
 * still one transaction.
 */

/** Every account with this address (its lower-cased key), in any organisation, oldest first. */
export async function signInCandidates(db: Kysely<Database>, emailKey: string) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'organisationId', 'email', 'displayName', 'isDisabled', 'status', 'passwordHash'])
    .where('emailKey', '=', emailKey)
    .orderBy('createdAt')
    .execute()
  return rows.map((r) => ({ ...r, isDisabled: r.isDisabled === 1 }))
}

/** Marks the user seen at sign-in, and replaces the password hash by `rehash.to` while it is still `rehash.from`. */
export async function markSignedIn(
  trx: Kysely<Database>,
  userId: string,
  at: string,
  rehash: { from: string; to: string } | null,
): Promise<void> {
  await trx.updateTable('users').set({ lastSeenAt: at }).where('id', '=', userId).execute()
  if (rehash)
    await trx
      .updateTable('users')
      .set({ passwordHash: rehash.to })
      .where('id', '=', userId)
      .where('passwordHash', '=', rehash.from)
      .execute()
}

/** Sets the password of an enabled user; null when the user is disabled or unknown. */
export async function setPasswordOfEnabled(
  trx: Kysely<Database>,
  userId: string,
  passwordHash: string,
): Promise<{ userId: string; organisationId: string; email: string } | null> {
  const row = await trx
    .updateTable('users')
    .set({ passwordHash })
    .where('id', '=', userId)
    .where('isDisabled', '=', 0)
    .returning(['id', 'organisationId', 'email'])
    .executeTakeFirst()
  return row ? { userId: row.id, organisationId: row.organisationId, email: row.email } : null
}

/** An enabled user's account (any status), or null. */
export async function enabledUser(
  db: Kysely<Database>,
  userId: string,
): Promise<{ userId: string; organisationId: string; email: string } | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'organisationId', 'email'])
    .where('id', '=', userId)
    .where('isDisabled', '=', 0)
    .executeTakeFirst()
  return row ? { userId: row.id, organisationId: row.organisationId, email: row.email } : null
}

/**
 * An active, enabled user with their tenancy roles and their organisation's cache version, in one statement (a
 * signed-in browser's every request reads it); null for a user who may not be signed in.
 */
export async function activeUserWithRoles(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('users')
    .leftJoin('tenancyRoles', 'tenancyRoles.userId', 'users.id')
    .select((eb) => [
      'users.id',
      'users.organisationId',
      'users.email',
      'users.displayName',
      'users.isOwner',
      'tenancyRoles.tenancyId',
      'tenancyRoles.role',
      versionOf(eb.ref('users.organisationId')).as('cacheVersion'),
    ])
    .where('users.id', '=', userId)
    .where('users.isDisabled', '=', 0)
    .where('users.status', '=', 'Active')
    .execute()
  const first = rows[0]
  if (!first) return null
  return {
    userId: first.id,
    organisationId: first.organisationId,
    email: first.email,
    displayName: first.displayName,
    isOwner: first.isOwner === 1,
    tenancyRoles: new Map(
      rows.flatMap((r) => (r.tenancyId === null ? [] : [[r.tenancyId, r.role as TenancyRole] as const])),
    ),
    cacheVersion: Number(first.cacheVersion ?? 0),
  }
}
