import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import { hashPassword, passwordProblems, verifyNothing, verifyPassword } from '../../platform/auth/password.js'
import type { Principal } from '../../platform/auth/principal.js'
import type { Clock } from '../../platform/clock.js'
import { sha256Hex } from '../../platform/crypto.js'
import { ApiError } from '../../platform/http/errors.js'
import type { Outbox } from '../../platform/mail.js'
import { principalOfUser } from '../users/principal.js'
import type { SessionStore, SessionUser } from './store.js'

/** A session lives 7 days at most, and ends after 24 hours unused. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000
export const SESSION_IDLE_MS = 24 * 3_600_000
/** How often a session's last use is written: not on every request. */
const TOUCH_RESOLUTION_MS = 60_000
/** Failed sign-ins in a row before an account is locked, and for how long. */
export const LOCK_AFTER_FAILURES = 10
export const LOCK_MS = 15 * 60_000
/** A password reset link works once, within an hour. */
export const RESET_LIFETIME_MS = 3_600_000

export interface SignedIn {
  /** The cookie's value: shown to the browser once, stored only as its SHA-256. */
  sessionId: string
  csrfToken: string
  user: SessionUser
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

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
  secretKey: Buffer
  publicUrl: string
  outbox: Outbox
}) {
  const { store, clock } = deps
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
     * may belong to several organisations); a locked account answers 429 until its lock ends, whatever the password.
     */
    async signIn(input: { email: string; password: string; address: string; userAgent: string | null }) {
      const email = input.email.trim().toLowerCase()
      const now = clock.now()
      const nowIso = now.toISOString()
      const candidates = EMAIL.test(email) ? await store.candidates(email) : []
      const locked = candidates.find((c) => c.signInLockedUntil !== null && c.signInLockedUntil > nowIso)
      if (locked) {
        const retryAfter = Math.ceil((Date.parse(locked.signInLockedUntil!) - now.getTime()) / 1000)
        throw ApiError.rateLimited(
          `Too many failed sign-ins for this account; try again in ${Math.ceil(retryAfter / 60)} minutes or reset the password.`,
          retryAfter,
        )
      }
      const withPassword = candidates.filter((c) => c.passwordHash !== null)
      if (withPassword.length === 0) {
        await verifyNothing(input.password)
        throw wrongCredentials()
      }
      for (const candidate of withPassword) {
        if (!(await verifyPassword(input.password, candidate.passwordHash!))) continue
        if (candidate.isDisabled || candidate.status !== 'Active')
          throw new ApiError(403, 'account-disabled', 'This account is disabled.', {
            detail: 'An owner of the organisation can enable it again.',
          })
        const sessionId = randomBytes(32).toString('base64url')
        const idHash = sha256Hex(sessionId)
        await store.clearFailures(candidate.id, nowIso)
        await store.insertSession({
          idHash,
          userId: candidate.id,
          createdAt: nowIso,
          lastSeenAt: nowIso,
          expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
          address: input.address,
          userAgent: input.userAgent?.slice(0, 512) ?? null,
        })
        const user = await store.sessionUser(idHash, nowIso, new Date(now.getTime() - SESSION_IDLE_MS).toISOString())
        if (!user) throw new Error('a session just opened was not found')
        return { sessionId, csrfToken: csrfOf(idHash), user } satisfies SignedIn
      }
      const lockUntil = new Date(now.getTime() + LOCK_MS).toISOString()
      for (const candidate of withPassword) await store.recordFailure(candidate.id, LOCK_AFTER_FAILURES, lockUntil)
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
     * Answers the same whether or not the address has an account, so nobody learns which addresses do.
     */
    async requestReset(emailInput: string): Promise<void> {
      const email = emailInput.trim().toLowerCase()
      if (!EMAIL.test(email)) throw ApiError.invalid({ email: ['must be an e-mail address'] })
      const now = clock.now()
      const queued: string[] = []
      for (const user of await store.candidates(email)) {
        if (user.isDisabled || user.status !== 'Active') continue
        const token = randomBytes(32).toString('base64url')
        const row = {
          tokenHash: sha256Hex(token),
          userId: user.id,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + RESET_LIFETIME_MS).toISOString(),
        }
        const link = `${deps.publicUrl}/reset-password/${token}`
        queued.push(
          await store.createReset(row, (trx) =>
            deps.outbox.queue(trx, user.organisationId, resetMail(user.email, link)),
          ),
        )
      }
      await deps.outbox.announce(queued)
    },

    /** The address a reset link is for, while it still works; the link's page shows it. */
    async resetFor(token: string): Promise<string> {
      const email = await store.resetEmail(sha256Hex(token), clock.now().toISOString())
      if (!email) throw invalidLink()
      return email
    },

    /** Sets the new password of a reset link, once; every session of the user ends. */
    async completeReset(token: string, password: string): Promise<void> {
      const problems = passwordProblems(password)
      if (problems.length) throw ApiError.invalid({ password: problems })
      const used = await store.useReset(sha256Hex(token), clock.now().toISOString(), await hashPassword(password))
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
