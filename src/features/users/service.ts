import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type Acting, type AuditEntry, recordAudit } from '../../platform/audit.js'
import { hashPassword, passwordProblems } from '../../platform/auth/password.js'
import type { Principal, TenancyRole } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { sha256Hex } from '../../platform/crypto.js'
import { isUniqueViolation } from '../../platform/db/errors.js'
import type { Database } from '../../platform/db/index.js'
import { emailProblems } from '../../platform/email.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { escapeHtml } from '../../platform/http/pages.js'
import type { PageOf, Paging } from '../../platform/http/paging.js'
import type { Outbox, OutgoingMail } from '../../platform/mail.js'
import { principalOfUser } from './principal.js'
import type {
  AcceptInvitationForm,
  InvitePublicUserRequest,
  MemberRole,
  PatchPublicUserRequest,
  TenancyUserRecord,
  UserRecord,
} from './schemas.js'
import type { InvitationState, UserState, UserStore } from './store.js'

/** An invitation link works for 7 days, once. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3_600_000
/** Letters, digits, `-` and `_` (base64url of 32 random bytes): the shape of a token, checked before any lookup. */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** Why a link no longer works; each has its page. */
export type InvitationProblem = 'unknown' | 'expired' | 'used'

export class InvitationUnusable extends Error {
  constructor(readonly reason: InvitationProblem) {
    super(`The invitation link is ${reason}.`)
  }
}

function validEmail(raw: string): string {
  const email = raw.trim()
  const problems = emailProblems(email)
  if (problems.length) throw ApiError.invalid({ email: problems })
  return email
}

/** A display name: trimmed, 1 to 200 characters; null or blank means none. */
function displayNameOf(raw: string | null | undefined, field = 'displayName'): string | null {
  if (raw === null || raw === undefined) return null
  const name = raw.trim()
  if (name.length > 200) throw ApiError.invalid({ [field]: ['must be at most 200 characters'] })
  return name === '' ? null : name
}

/** Counts as the organisation's manager: the last one may not be demoted or disabled. */
const isActiveOwner = (u: UserState) => u.isOwner && !u.isDisabled && u.status === 'Active'

export function createUserService(deps: {
  store: UserStore
  outbox: Outbox
  clock: Clock
  ids: Ids
  /** Base of links in e-mails (COSTWATCH_PUBLIC_URL). */
  publicUrl: string
  organisationName(organisationId: string): Promise<string | null>
  organisationOfTenancy(tenancyId: string): Promise<string | null>
  /** Ends every session of the user, in the transaction of the change that disables or demotes them. */
  endSessionsOf(trx: Kysely<Database>, userId: string): Promise<void>
}) {
  const { store, outbox, clock, ids } = deps
  const audit = (trx: Kysely<Database>, entry: Omit<AuditEntry, 'at'> & { at?: string }) =>
    recordAudit(trx, ids, { at: clock.now().toISOString(), ...entry })

  /** A new single-use link for the user, stored as a hash, and its e-mail queued, in `trx`. */
  async function sendInvitation(
    trx: Kysely<Database>,
    user: { id: string; organisationId: string; email: string },
    organisation: string,
  ) {
    const token = randomBytes(32).toString('base64url')
    const now = clock.now()
    await store.replaceInvitation(trx, {
      tokenHash: sha256Hex(token),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
    })
    return outbox.queue(
      trx,
      user.organisationId,
      invitationMail(user.email, organisation, `${deps.publicUrl}/invite/${token}`),
    )
  }

  /** Read before a transaction: on SQLite, a read outside it would wait for the connection the transaction holds. */
  const organisationNameOf = async (organisationId: string) =>
    (await deps.organisationName(organisationId)) ?? 'an organisation'

  async function found(organisationId: string, userId: string): Promise<UserRecord> {
    const user = await store.get(organisationId, userId)
    if (!user) throw ApiError.notFound(`User ${userId}`)
    return user
  }

  /** The user must be a member of the tenancy's organisation: another organisation's user is a 404, like an unknown one. */
  async function memberOf(tenancyId: string, userId: string): Promise<string> {
    const organisationId = await deps.organisationOfTenancy(tenancyId)
    if (!organisationId) throw ApiError.notFound(`Tenant ${tenancyId}`)
    if ((await store.organisationOf(userId)) !== organisationId) throw ApiError.notFound(`User ${userId}`)
    return organisationId
  }

  /** The invitation of a link that still works; throws InvitationUnusable otherwise. */
  async function usableInvitation(token: string): Promise<InvitationState> {
    const found = INVITATION_TOKEN.test(token) ? await store.invitation(sha256Hex(token)) : null
    if (!found) throw new InvitationUnusable('unknown')
    if (found.usedAt || found.replacedAt || found.userStatus !== 'Invited' || found.userDisabled)
      throw new InvitationUnusable('used')
    if (found.expiresAt <= clock.now().toISOString()) throw new InvitationUnusable('expired')
    return found
  }

  return {
    list: (who: Principal, paging: Paging): Promise<PageOf<UserRecord>> => store.list(who.organisationId, paging),

    get: (who: Principal, userId: string): Promise<UserRecord> => found(who.organisationId, userId),

    /** Every tenancy role held in the principal's organisation. */
    rolesInOrganisation: (who: Principal): Promise<MemberRole[]> => store.rolesInOrganisation(who.organisationId),
    listOfTenancy: (who: Principal, tenancyId: string, paging: Paging): Promise<PageOf<TenancyUserRecord>> =>
      store.listOfTenancy(who.organisationId, tenancyId, paging),

    /**
     * A new member, Invited, with an e-mail holding a single-use link. The e-mail is queued in the same
     * transaction (the outbox), so an SMTP outage delays it and never fails the invitation.
     */
    async invite(who: Principal, by: Acting, input: InvitePublicUserRequest): Promise<UserRecord> {
      const email = validEmail(input.email)
      const displayName = displayNameOf(input.displayName)
      const organisationId = who.organisationId
      const exists = () => ApiError.conflict(`${email} is already a member of this organisation.`)
      if (await store.idOfEmail(organisationId, email)) throw exists()
      const organisation = await organisationNameOf(organisationId)
      const now = clock.now().toISOString()
      let mailId: string
      let user: UserRecord
      try {
        ;[user, mailId] = await store.transaction(async (trx) => {
          const created = await store.insert(
            {
              id: ids.uuid(),
              organisationId,
              email,
              displayName,
              isOwner: 0,
              isDisabled: 0,
              status: 'Invited',
              invitedAt: now,
              createdAt: now,
              lastSeenAt: null,
            },
            trx,
          )
          const queued = await sendInvitation(trx, { id: created.id, organisationId, email }, organisation)
          await audit(trx, { organisationId, by, action: 'user.invited', target: { type: 'User', id: created.id } })
          return [created, queued] as const
        })
      } catch (err) {
        // Two invitations of one address at once: the unique index lets one through.
        if (isUniqueViolation(err)) throw exists()
        throw err
      }
      await outbox.announce([mailId])
      return user
    },

    /** A new link for a user who has not accepted yet; the link sent before stops working. */
    async resendInvitation(who: Principal, by: Acting, userId: string): Promise<UserRecord> {
      const organisationId = who.organisationId
      const user = await found(organisationId, userId)
      if (user.status !== 'Invited') {
        throw ApiError.conflict(`User ${userId} is ${user.status}: only an invited user is sent a new invitation.`)
      }
      const organisation = await organisationNameOf(organisationId)
      const now = clock.now().toISOString()
      const mailId = await store.transaction(async (trx) => {
        await store.update(trx, userId, { invitedAt: now })
        const queued = await sendInvitation(trx, { id: userId, organisationId, email: user.email }, organisation)
        await audit(trx, { organisationId, by, action: 'user.invitationResent', target: { type: 'User', id: userId } })
        return queued
      })
      await outbox.announce([mailId])
      return { ...user, invitedAt: now }
    },

    /**
     * Display name, owner status, enabled state. The organisation keeps at least one active, enabled owner: the
     * change is made with the organisation locked (see `lockOrganisation`), so of two requests demoting or
     * disabling the last two owners at once, the second sees the first's change and gets the 409.
     */
    async update(who: Principal, by: Acting, userId: string, patch: PatchPublicUserRequest): Promise<UserRecord> {
      const organisationId = who.organisationId
      const displayName =
        patch.displayName === undefined || patch.displayName === null ? undefined : displayNameOf(patch.displayName)
      if (displayName === null)
        throw ApiError.invalid({ displayName: ['must not be blank (send null to leave it unchanged)'] })
      return store.transaction(async (trx) => {
        await store.lockOrganisation(trx, organisationId)
        const user = await store.state(organisationId, userId, trx)
        if (!user) throw ApiError.notFound(`User ${userId}`)
        const isOwner = patch.isOwner ?? user.isOwner
        const isDisabled = patch.isDisabled ?? user.isDisabled
        const after = { ...user, isOwner, isDisabled }
        if (
          isActiveOwner(user) &&
          !isActiveOwner(after) &&
          (await store.otherActiveOwners(trx, organisationId, userId)) === 0
        ) {
          throw ApiError.conflict(
            `User ${userId} is the last active owner of the organisation: make another user owner first.`,
          )
        }
        await store.update(trx, userId, {
          ...(displayName !== undefined && displayName !== user.displayName ? { displayName } : {}),
          ...(isOwner !== user.isOwner ? { isOwner: isOwner ? 1 : 0 } : {}),
          ...(isDisabled !== user.isDisabled ? { isDisabled: isDisabled ? 1 : 0 } : {}),
        })
        // Disabled or no longer an owner: every session ends with the change (re-enabling revives none).
        if ((isDisabled && !user.isDisabled) || (user.isOwner && !isOwner)) await deps.endSessionsOf(trx, userId)
        const target = { type: 'User' as const, id: userId }
        if (displayName !== undefined && displayName !== user.displayName)
          await audit(trx, { organisationId, by, action: 'user.renamed', target, detail: { displayName } })
        if (isOwner !== user.isOwner)
          await audit(trx, { organisationId, by, action: isOwner ? 'user.ownerGranted' : 'user.ownerRevoked', target })
        if (isDisabled !== user.isDisabled)
          await audit(trx, { organisationId, by, action: isDisabled ? 'user.disabled' : 'user.enabled', target })
        return (await store.get(organisationId, userId, trx))!
      })
    },

    /** Gives a member a role on a tenancy (or changes it). The tenancy has been authorised by the caller. */
    async grantRole(by: Acting, tenancyId: string, userId: string, role: TenancyRole): Promise<TenancyUserRecord> {
      const organisationId = await memberOf(tenancyId, userId)
      return store.transaction(async (trx) => {
        const before = await store.grant(trx, tenancyId, userId, role)
        if (before !== role) {
          await audit(trx, {
            organisationId,
            by,
            action: 'user.roleGranted',
            target: { type: 'User', id: userId },
            detail: { tenancyId, role, previousRole: before },
          })
        }
        return (await store.tenancyUser(tenancyId, userId, trx))!
      })
    },

    /** Removes a member's role on a tenancy; nothing to remove is no change (and no audit row). */
    async revokeRole(by: Acting, tenancyId: string, userId: string): Promise<void> {
      const organisationId = await memberOf(tenancyId, userId)
      await store.transaction(async (trx) => {
        const removed = await store.revokeRole(trx, tenancyId, userId)
        if (removed) {
          await audit(trx, {
            organisationId,
            by,
            action: 'user.roleRevoked',
            target: { type: 'User', id: userId },
            detail: { tenancyId, role: removed },
          })
        }
      })
    },

    /** Who the link invites, if it still works; throws InvitationUnusable otherwise. */
    async invitation(token: string): Promise<{ email: string; displayName: string | null }> {
      const { email, displayName } = await usableInvitation(token)
      return { email, displayName }
    },

    /**
     * Accepts the invitation: the display name and a password hash are set and the user is Active. The link
     * works once: it is used by a conditional update, in the transaction that activates the user.
     */
    async accept(token: string, origin: string, form: AcceptInvitationForm): Promise<UserRecord> {
      const details = await usableInvitation(token)
      const errors: FieldErrors = {}
      const displayName = displayNameOf(form.displayName)
      if (displayName === null) errors.displayName = ['is required']
      const passwordErrors = passwordProblems(form.password)
      if (passwordErrors.length) errors.password = passwordErrors
      if (form.password !== form.passwordConfirmation) errors.passwordConfirmation = ['does not match the password']
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      // Hashed before the transaction: scrypt takes tens of milliseconds, and no lock need wait for it.
      const passwordHash = await hashPassword(form.password)
      const tokenHash = sha256Hex(token)
      const now = clock.now().toISOString()
      return store.transaction(async (trx) => {
        if (!(await store.useInvitation(trx, tokenHash, now))) {
          throw new InvitationUnusable(details.expiresAt <= now ? 'expired' : 'used')
        }
        if (!(await store.activate(trx, details.userId, displayName!, passwordHash)))
          throw new InvitationUnusable('used')
        await audit(trx, {
          organisationId: details.organisationId,
          by: { actor: { type: 'User', id: details.userId, name: details.email }, origin },
          action: 'user.invitationAccepted',
          target: { type: 'User', id: details.userId },
        })
        return (await store.get(details.organisationId, details.userId, trx))!
      })
    },

    /**
     * The principal of a user as they are now: null for a disabled or not yet active user, or an unknown id. One
     * read: it bounds every request of a key the user created.
     */
    async principalOf(userId: string): Promise<Principal | null> {
      const found = await store.stateWithRoles(userId)
      return found ? principalOfUser(found.user, found.roles) : null
    },
  }
}
export type UserService = ReturnType<typeof createUserService>

/** The invitation e-mail: plain text and a small HTML part, the link in both. */
export function invitationMail(to: string, organisation: string, link: string): OutgoingMail {
  const text = [
    `You are invited to join ${organisation} on Costwatch.`,
    '',
    'Open this link to choose your name and password (it works once, for 7 days):',
    link,
    '',
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n')
  const html =
    `<p>You are invited to join ${escapeHtml(organisation)} on Costwatch.</p>` +
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a> (the link works once, for 7 days).</p>` +
    '<p>If you did not expect this invitation, ignore this e-mail.</p>'
  return { to, subject: `Your invitation to ${organisation} on Costwatch`, text, html }
}
