import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type AuditAction, recordAudit } from '../../platform/audit.js'
import { type AuthFailureLimiter, createAddressWindows } from '../../platform/auth/failures.js'
import {
  hashPassword,
  needsRehash,
  padVerification,
  passwordProblems,
  verifyNothing,
  verifyPassword,
} from '../../platform/auth/password.js'
import type { Principal } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { sha256Hex } from '../../platform/crypto.js'
import type { Database } from '../../platform/db/index.js'
import { emailProblems } from '../../platform/email.js'
import { ApiError } from '../../platform/http/errors.js'
import type { Outbox } from '../../platform/mail.js'
import { principalOfUser } from '../users/public.js'
import type { SessionStore, SessionUser, SignInCandidate } from './store.js'

/** A session lives 7 days at most, and ends after 24 hours unused. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000
export const SESSION_IDLE_MS = 24 * 3_600_000
/** How often a session's last use is written: not on every request. */
const TOUCH_RESOLUTION_MS = 60_000
/**
 * Failed sign-ins in a row from one client address on one account before that address is locked out of that
 * account (nobody else is), and for how long; the count starts again when the lock ends.
 */
export const LOCK_AFTER_FAILURES = 10
export const LOCK_MS = 15 * 60_000
/** A password reset link works once, within an hour. */
export const RESET_LIFETIME_MS = 3_600_000
/** Reset links an account gets an hour, and reset requests a client address may make an hour, at most. */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3
export const RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 10

export interface SignedIn {
  /** The cookie's value: shown to the browser once, stored only as its SHA-256. */
  sessionId: string
  csrfToken: string
  user: SessionUser
}

function wrongCredentials() {
  // One answer for an unknown address, a wrong password and an account without one: nothing to enumerate.
  return new ApiError(401, 'sign-in-failed', 'The e-mail address or password is wrong.', {
    detail: 'Check both and try again; "forgot password" sends a link to set a new one.',
  })
}

export function invalidLink() {
  return new ApiError(410, 'invalid-link', 'This password link no longer works.', {
    detail: 'It was used already, has expired (links last an hour), or was never issued. Ask for a new one.',
  })
}

function resetMail(to: string, link: string) {
  return {
    to,
    subject: 'Set your Costwatch password',
    text: [
      `Someone (hopefully you) asked to set a new password for ${to} on Costwatch.`,
      '',
      `Open this link within the hour to choose it: ${link}`,
      '',
      'The link works once. If you did not ask for it, ignore this message: your password stays as it was.',
    ].join('\n'),
  }
}

export function notSignedIn() {
  return new ApiError(401, 'unauthorized', 'Sign in first.', {
    detail: 'This part of the service takes the session of a signed-in user (its session cookie).',
  })
}

/**
 * Sign-in, sessions and password resets of the web interface. Sessions are rows (so sign-out and a disabled
 * user's end take effect at once, in every process); the browser holds a random id, the table its SHA-256.
 * The CSRF token is an HMAC of the session, so nothing more is stored and it dies with the session.
 */
export function createSessionService(deps: {
  store: SessionStore
  clock: Clock
  ids: Ids
  secretKey: Buffer
  publicUrl: string
  outbox: Outbox
  /** Whether e-mail is sent (an SMTP server is configured): without it no reset link is made, so none is logged. */
  mailEnabled: boolean
  /** Failed authentications per client address: past the limit, a sign-in is refused before any password check. */
  failures: AuthFailureLimiter
}) {
  const { store, clock, ids } = deps
  const resetRequests = createAddressWindows(RESET_REQUESTS_PER_ADDRESS_PER_HOUR, 3_600_000, () =>
    clock.now().getTime(),
  )
  /** One audit entry about `user`, from `address` (the client's), in `trx`; never a password or a token. */
  const audit = (
    trx: Kysely<Database>,
    user: { id: string; organisationId: string; email: string },
    entry: { action: AuditAction; address: string; as: 'user' | 'unknown'; detail?: Record<string, string | boolean> },
  ) =>
    recordAudit(trx, ids, {
      organisationId: user.organisationId,
      at: clock.now().toISOString(),
      // A failed sign-in or a reset request may come from anyone: the actor is then the client, not the account.
      by: {
        actor:
          entry.as === 'user'
            ? { type: 'User', id: user.id, name: user.email }
            : { type: 'User', id: null, name: 'not signed in' },
        origin: entry.address,
      },
      action: entry.action,
      target: { type: 'User', id: user.id },
      ...(entry.detail ? { detail: entry.detail } : {}),
    })
  const failedAudit =
    (candidates: SignInCandidate[], address: string, reasonOf: (c: SignInCandidate) => string) =>
    async (trx: Kysely<Database>) => {
      for (const c of candidates)
        await audit(trx, c, { action: 'user.signInFailed', address, as: 'unknown', detail: { reason: reasonOf(c) } })
    }

  const csrfKey = Buffer.from(hkdfSync('sha256', deps.secretKey, Buffer.alloc(0), 'costwatch csrf', 32))
  const csrfOf = (idHash: string) => createHmac('sha256', csrfKey).update(idHash).digest('base64url')

  /** The user's principal, as `principalOfUser` makes it for everyone, with the cache version read alongside. */
  function principalOf(user: SessionUser): Principal {
    const roles = [...user.tenancyRoles].map(([tenancyId, role]) => ({ tenancyId, role }))
    const state = { ...user, id: user.userId, isDisabled: false, status: 'Active' as const }
    const principal = principalOfUser(state, roles)
    if (!principal) throw notSignedIn()
    return { ...principal, cacheVersion: user.cacheVersion }
  }

  return {
    /** Browsers send the cookie over https only when the service is reached over https. */
    secureCookie: deps.publicUrl.startsWith('https://'),

    /**
     * Checks the address and password and opens a session. Every account with the address is tried (one person
     * may belong to several organisations). A client address past its failure limit is refused (429) before any
     * password is checked; an account locked for this client address answers exactly as a wrong password does.
     */
    async signIn(input: { email: string; password: string; address: string; userAgent: string | null }) {
      const refused = deps.failures.refusal(input.address)
      if (refused) throw refused
      const email = input.email.trim().toLowerCase()
      const now = clock.now()
      const nowIso = now.toISOString()
      const emailErrors = emailProblems(email)
      if (emailErrors.length) throw ApiError.invalid({ email: emailErrors })
      const candidates = await store.candidates(email)
      const withPassword = candidates.filter((c) => c.passwordHash !== null)
      const locked = await store.lockedFor(
        withPassword.map((c) => c.id),
        input.address,
        nowIso,
      )
      const open = withPassword.filter((c) => !locked.has(c.id))
      const reasonOf = (c: SignInCandidate) =>
        c.passwordHash === null ? 'no-password' : locked.has(c.id) ? 'locked' : 'wrong-password'
      // The time a wrong password takes is spent whatever the reason, so no answer is quicker than another.
      if (open.length === 0) await verifyNothing(input.password)
      for (const candidate of open) {
        if (!(await verifyPassword(input.password, candidate.passwordHash!))) {
          if (needsRehash(candidate.passwordHash!)) await padVerification(candidate.passwordHash!)
          continue
        }
        if (candidate.isDisabled || candidate.status !== 'Active') {
          await store.audit(failedAudit([candidate], input.address, () => 'disabled'))
          throw new ApiError(403, 'account-disabled', 'This account is disabled.', {
            detail: 'An owner of the organisation can enable it again.',
          })
        }
        // A hash made with weaker parameters than today's is made again now, while the password is at hand.
        const rehash = needsRehash(candidate.passwordHash!)
          ? { from: candidate.passwordHash!, to: await hashPassword(input.password) }
          : null
        const sessionId = randomBytes(32).toString('base64url')
        const idHash = sha256Hex(sessionId)
        await store.signedIn(
          {
            idHash,
            userId: candidate.id,
            createdAt: nowIso,
            lastSeenAt: nowIso,
            expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
            address: input.address,
            userAgent: input.userAgent?.slice(0, 512) ?? null,
          },
          rehash,
          (trx) => audit(trx, candidate, { action: 'user.signedIn', address: input.address, as: 'user' }),
        )
        const user = await store.sessionUser(idHash, nowIso, new Date(now.getTime() - SESSION_IDLE_MS).toISOString())
        if (!user) throw new Error('a session just opened was not found')
        return { sessionId, csrfToken: csrfOf(idHash), user } satisfies SignedIn
      }
      if (candidates.length > 0) {
        const lockedUntil = new Date(now.getTime() + LOCK_MS).toISOString()
        await store.recordFailures(
          open.map((c) => c.id),
          { address: input.address, at: nowIso, lockAfter: LOCK_AFTER_FAILURES, lockedUntil },
          failedAudit(candidates, input.address, reasonOf),
        )
      }
      throw wrongCredentials()
    },

    /** The principal of a session cookie, or the one 401; marks the session used, at most once a minute. */
    async verify(
      sessionId: string | undefined,
    ): Promise<{ principal: Principal; user: SessionUser; csrfToken: string }> {
      if (!sessionId || sessionId.length > 128) throw notSignedIn()
      const idHash = sha256Hex(sessionId)
      const now = clock.now()
      const user = await store.sessionUser(
        idHash,
        now.toISOString(),
        new Date(now.getTime() - SESSION_IDLE_MS).toISOString(),
      )
      if (!user) throw notSignedIn()
      const staleBefore = new Date(now.getTime() - TOUCH_RESOLUTION_MS).toISOString()
      if (user.lastSeenAt < staleBefore) await store.touchSession(idHash, now.toISOString(), staleBefore)
      return { principal: principalOf(user), user, csrfToken: csrfOf(idHash) }
    },

    /** Whether `presented` is the CSRF token of the session `sessionId`. */
    csrfMatches(sessionId: string, presented: string | undefined): boolean {
      if (!presented) return false
      const expected = Buffer.from(csrfOf(sha256Hex(sessionId)))
      const given = Buffer.from(presented)
      return given.length === expected.length && timingSafeEqual(given, expected)
    },

    async signOut(sessionId: string): Promise<void> {
      await store.deleteSession(sha256Hex(sessionId))
    },

    /**
     * Sends a single-use link to set a new password (also the first one: an owner made by `org create` has none).
     * Answers the same whether or not the address has an account, so nobody learns which addresses do. A new link
     * replaces the account's earlier one. No link is made without e-mail (it would end in the log, for anyone who
     * reads it), past RESETS_PER_ACCOUNT_PER_HOUR for the account, or past RESET_REQUESTS_PER_ADDRESS_PER_HOUR for
     * the client address; the answer stays the same.
     */
    async requestReset(emailInput: string, address: string): Promise<void> {
      const email = emailInput.trim().toLowerCase()
      const emailErrors = emailProblems(email)
      if (emailErrors.length) throw ApiError.invalid({ email: emailErrors })
      const addressOver = resetRequests.count(address) !== null
      const now = clock.now()
      const queued: string[] = []
      for (const user of await store.candidates(email)) {
        if (user.isDisabled || user.status !== 'Active') continue
        const requested = (trx: Kysely<Database>, linkSent: boolean, reason?: string) =>
          audit(trx, user, {
            action: 'user.passwordResetRequested',
            address,
            as: 'unknown',
            detail: { linkSent, ...(reason ? { reason } : {}) },
          })
        const hourAgo = new Date(now.getTime() - 3_600_000).toISOString()
        const refusal = !deps.mailEnabled
          ? 'mail-off'
          : addressOver
            ? 'address-limit'
            : (await store.resetsSince(user.id, hourAgo)) >= RESETS_PER_ACCOUNT_PER_HOUR
              ? 'account-limit'
              : null
        if (refusal) {
          await store.audit((trx) => requested(trx, false, refusal))
          continue
        }
        const token = randomBytes(32).toString('base64url')
        const row = {
          tokenHash: sha256Hex(token),
          userId: user.id,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + RESET_LIFETIME_MS).toISOString(),
        }
        const link = `${deps.publicUrl}/reset-password/${token}`
        const mailId = await store.createReset(
          row,
          (trx) => deps.outbox.queue(trx, user.organisationId, resetMail(user.email, link)),
          (trx) => requested(trx, true),
        )
        if (mailId) queued.push(mailId)
      }
      await deps.outbox.announce(queued)
    },

    /**
     * The path of a single-use link that sets the user's password, for the caller to hand over (the demo prints
     * it on its terminal once at start); it replaces the user's earlier links and lasts `lifetimeMs`. Never
     * mailed, never logged.
     */
    async passwordLink(userId: string, lifetimeMs: number): Promise<string> {
      const token = randomBytes(32).toString('base64url')
      const now = clock.now()
      await store.createReset(
        {
          tokenHash: sha256Hex(token),
          userId,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + lifetimeMs).toISOString(),
        },
        null,
        null,
      )
      return `/reset-password/${token}`
    },

    /** The address a reset link is for, while it still works; the link's page shows it. */
    async resetFor(token: string): Promise<string> {
      const live = await store.liveReset(sha256Hex(token), clock.now().toISOString())
      if (!live) throw invalidLink()
      return live.email
    },

    /**
     * Sets the new password of a reset link, once; every session of the user ends. The link is checked before
     * the password is hashed: a made-up token costs a lookup, not a hash.
     */
    async completeReset(token: string, password: string, address: string): Promise<void> {
      const problems = passwordProblems(password)
      if (problems.length) throw ApiError.invalid({ password: problems })
      const tokenHash = sha256Hex(token)
      if (!(await store.liveReset(tokenHash, clock.now().toISOString()))) throw invalidLink()
      const passwordHash = await hashPassword(password)
      const used = await store.useReset(tokenHash, clock.now().toISOString(), passwordHash, (trx, user) =>
        audit(
          trx,
          { id: user.userId, organisationId: user.organisationId, email: user.email },
          {
            action: 'user.passwordReset',
            address,
            as: 'user',
          },
        ),
      )
      if (!used) throw invalidLink()
    },

    /** Sessions past their lifetime or idle limit, deleted (the worker's housekeeping). */
    async deleteExpired(): Promise<number> {
      const now = clock.now()
      return store.deleteExpired(now.toISOString(), new Date(now.getTime() - SESSION_IDLE_MS).toISOString())
    },
  }
}
export type SessionService = ReturnType<typeof createSessionService>
