import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { hashPassword } from '../../src/platform/auth/password.js'
import { type TestApp, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

// Every scrypt derivation the app makes is counted: "refused before any hash" is then a number, not a timing.
// `work` sums N * r * p, what a derivation costs.
const scrypts = vi.hoisted(() => ({ count: 0, work: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>()
  const scrypt = ((...args: Parameters<typeof crypto.scrypt>) => {
    scrypts.count++
    const options = args[3] as { N?: number; r?: number; p?: number }
    scrypts.work += (options.N ?? 0) * (options.r ?? 0) * (options.p ?? 0)
    return (crypto.scrypt as (...a: unknown[]) => void)(...args)
  }) as typeof crypto.scrypt
  return { ...crypto, default: { ...crypto, scrypt }, scrypt }
})

const APP = '/api/app'
const PASSWORD = 'a long enough passphrase'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** The owner of a new organisation, with a password. */
async function account(t: TestApp, name: string, password = PASSWORD): Promise<{ email: string; id: string }> {
  const org = await t.given.organisation(name)
  await t.db.kysely
    .updateTable('users')
    .set({ passwordHash: await hashPassword(password) })
    .where('id', '=', org.ownerId)
    .execute()
  return { email: org.owner.actor.name!, id: org.ownerId }
}

const signIn = (t: TestApp, email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: `${APP}/session`, payload: { email, password }, remoteAddress })

function expectLimited(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429)
  expect(res.headers['content-type']).toContain('application/problem+json')
  expect(res.json()).toMatchObject({ type: '/problems/rate-limited', status: 429 })
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
}

for (const dialect of testDialects()) {
  describe(`${dialect}: failed sign-ins from one address (the default limit, 60 a minute)`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_AUTH_FAILURE_LIMIT: '60' } })

    it('past the limit even the right password gets 429, refused before any hash; elsewhere it signs in', async () => {
      const { email } = await account(t, 'Guessed Ltd')
      const statuses: number[] = []
      for (let i = 0; i < 62; i++) statuses.push((await signIn(t, email, `wrong guess ${i}`, '203.0.113.9')).statusCode)
      expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true)
      expect(statuses.slice(60)).toEqual([429, 429])
      const before = scrypts.count
      expectLimited(await signIn(t, email, PASSWORD, '203.0.113.9'))
      expect(scrypts.count).toBe(before)
      expect((await signIn(t, email, PASSWORD, '198.51.100.9')).statusCode).toBe(200)
      expect(scrypts.count).toBeGreaterThan(before) // the count sees the hashes of a sign-in that is checked
    })

    it('a wrong password costs the same work for an account with a current hash, one awaiting its rehash, and no account', async () => {
      const fresh = await account(t, 'Fresh Ltd')
      const old = await account(t, 'Old Ltd')
      await t.db.kysely
        .updateTable('users')
        .set({ passwordHash: await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 }) })
        .where('id', '=', old.id)
        .execute()
      const workOf = async (email: string) => {
        const before = scrypts.work
        expect((await signIn(t, email, 'a wrong password guess', '192.0.2.77')).statusCode).toBe(401)
        return scrypts.work - before
      }
      await workOf('nobody@nowhere.test') // the first one also makes the decoy hash
      const unknown = await workOf('nobody@nowhere.test')
      expect(unknown).toBeGreaterThan(0)
      expect(await workOf(fresh.email)).toBe(unknown)
      expect(await workOf(old.email)).toBe(unknown)
    })

    it('a password reset confirmation with a made-up token is refused before the new password is hashed', async () => {
      const before = scrypts.count
      const res = await t.app.inject({
        method: 'POST',
        url: `${APP}/password-reset/confirm`,
        payload: { token: 'x'.repeat(43), password: 'a new long passphrase' },
      })
      expect(res.statusCode).toBe(410)
      const page = await t.app.inject({
        method: 'POST',
        url: `/reset-password/${'y'.repeat(43)}`,
        payload: new URLSearchParams({
          password: 'a new long passphrase',
          passwordConfirmation: 'a new long passphrase',
        }).toString(),
        headers: FORM,
      })
      expect(page.statusCode).toBe(410)
      expect(scrypts.count).toBe(before)
    })
  })

  describe(`${dialect}: one password sprayed across many accounts from one address`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_AUTH_FAILURE_LIMIT: '3' } })

    it('is limited like guesses at one account: the account that has it is not reached', async () => {
      const sprayed = 'Summer-2026-password!'
      const accounts = []
      for (let i = 0; i < 4; i++) accounts.push(await account(t, `Sprayed ${i}`, `the own password of ${i}`))
      const weak = await account(t, 'Weak Ltd', sprayed)
      const statuses = []
      for (const { email } of [...accounts, weak])
        statuses.push((await signIn(t, email, sprayed, '203.0.113.10')).statusCode)
      expect(statuses).toEqual([401, 401, 401, 429, 429])
      expect((await signIn(t, weak.email, sprayed, '198.51.100.10')).statusCode).toBe(200)
    })
  })

  describe(`${dialect}: requests without a key, per client address`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_ANONYMOUS_LIMIT: '5' } })
    let invitation = ''

    beforeAll(async () => {
      const org = await t.given.organisation('Limited Ltd')
      const invited = await t.request('POST', '/api/public/v1/users', org.ownerKey, { email: 'new@limited.test' })
      expect(invited.statusCode, invited.body).toBe(202)
      invitation = invited.json().id
    })

    const routes: [string, 'GET' | 'POST', string, () => object][] = [
      ['sign-in', 'POST', `${APP}/session`, () => ({ payload: { email: 'a@b.test', password: 'not the password' } })],
      ['reset request', 'POST', `${APP}/password-reset`, () => ({ payload: { email: 'a@b.test' } })],
      [
        'reset confirmation',
        'POST',
        `${APP}/password-reset/confirm`,
        () => ({ payload: { token: 'x'.repeat(43), password: 'a new long passphrase' } }),
      ],
      ['reset page', 'GET', `/reset-password/${'x'.repeat(43)}`, () => ({})],
      ['reset form', 'POST', `/reset-password/${'x'.repeat(43)}`, () => ({ payload: 'password=x', headers: FORM })],
      ['invitation page', 'GET', `/invite/${'x'.repeat(43)}`, () => ({})],
      ['invitation form', 'POST', `/invite/${'x'.repeat(43)}`, () => ({ payload: 'password=x', headers: FORM })],
    ]

    it.each(routes.map((r, i) => [...r, i] as const))(
      'the %s gets 429 past the limit',
      async (_, method, url, extra, i) => {
        const remoteAddress = `192.0.2.${100 + i}`
        for (let n = 0; n < 5; n++) {
          const res = await t.app.inject({ method, url, remoteAddress, ...extra() })
          expect(res.statusCode, res.body).not.toBe(429)
        }
        const before = scrypts.count
        expectLimited(await t.app.inject({ method, url, remoteAddress, ...extra() }))
        expect(scrypts.count).toBe(before)
        // Another address is not limited by this one's requests.
        const other = await t.app.inject({ method, url, remoteAddress: `192.0.2.${200 + i}`, ...extra() })
        expect(other.statusCode).not.toBe(429)
      },
    )

    it('routes that take a key or a session are not counted', async () => {
      for (let n = 0; n < 8; n++)
        expect(
          (await t.app.inject({ method: 'GET', url: `${APP}/session`, remoteAddress: '192.0.2.50' })).statusCode,
        ).toBe(401)
      expect(invitation).toBeTruthy()
    })
  })

  describe(`${dialect}: password resets without SMTP`, () => {
    const t = useTestApp({ dialect })

    it('queue no e-mail and write no link anywhere in the log; invitations still reach the log', async () => {
      const org = await t.given.organisation('Mailless Ltd')
      const email = org.owner.actor.name!
      const res = await t.app.inject({ method: 'POST', url: `${APP}/password-reset`, payload: { email } })
      expect(res.statusCode).toBe(202)
      const unknown = await t.app.inject({
        method: 'POST',
        url: `${APP}/password-reset`,
        payload: { email: 'x@y.test' },
      })
      expect(res.body).toBe(unknown.body)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const outbox = await t.db.kysely.selectFrom('mailOutbox').select('subject').execute()
      expect(outbox.filter((m) => m.subject.includes('password'))).toEqual([])
      const resets = await t.db.kysely.selectFrom('passwordResets').selectAll().execute()
      expect(resets).toEqual([])
      expect(t.logs.join('')).not.toContain('reset-password')
      // An owner's invitation is still handed over through the log.
      const invited = await t.request('POST', '/api/public/v1/users', org.ownerKey, { email: 'joiner@mailless.test' })
      expect(invited.statusCode).toBe(202)
      while (await worker.runOnce()) {}
      expect(t.logs.join('')).toContain('/invite/')
    })
  })
}
