import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import type { UserRecord } from '../../src/features/users/schemas.js'
import { hashPassword, verifyPassword } from '../../src/platform/auth/password.js'
import { type OrgContext, TEST_HASH_PARAMS, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { createTestSmtpServer, type ReceivedMail } from '../support/smtp.js'

const API = '/api/public/v1'
const APP = '/api/app'
const PUBLIC_URL = 'https://costwatch.example.test'
const HTML = { accept: 'text/html,application/xhtml+xml' }
const FORM = { 'content-type': 'application/x-www-form-urlencoded', ...HTML }
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const PASSWORD = 'a long enough passphrase'
const NOW = '2026-03-01T09:00:00.000Z'

/** The link of a delivered e-mail, to one of the pages outside the API. */
function linkOf(mail: ReceivedMail, page: 'invite' | 'reset-password'): string {
  const link = new RegExp(`https://costwatch\\.example\\.test/${page}/[A-Za-z0-9_-]+`).exec(mail.text)?.[0]
  expect(link, mail.text).toBeTruthy()
  return new URL(link!).pathname
}

/** A signed-in browser: its cookie and CSRF token, sent the way the web interface sends them. */
interface Browser {
  cookie: string
  csrf: string
}

for (const dialect of testDialects()) {
  describe(`${dialect}: sign-in and the web interface's API`, () => {
    const smtp = createTestSmtpServer()
    const env: Record<string, string> = {
      COSTWATCH_PUBLIC_URL: PUBLIC_URL,
      COSTWATCH_SNAPSHOT_HOUR: '23',
      COSTWATCH_RATE_LIMIT: '100000',
    }
    beforeAll(async () => {
      await smtp.start()
      env.COSTWATCH_SMTP_URL = smtp.url
    })
    afterAll(() => smtp.stop())
    const t = useTestApp({ dialect, now: NOW, env })
    let org: OrgContext
    let ownerEmail: string
    let tenantA: TenantRecord
    let tenantB: TenantRecord

    // biome-ignore lint/suspicious/noDuplicateTestHooks: the SMTP server's hook must run before the app's, this one after
    beforeAll(async () => {
      org = await t.given.organisation('Sessions Ltd')
      ownerEmail = (await t.request('GET', `${API}/users/${org.ownerId}`, org.ownerKey)).json().email
      tenantA = await t.given.tenant(org, { name: 'A' })
      tenantB = await t.given.tenant(org, { name: 'B' })
    })

    const deliver = async () => {
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }
    const lastMailTo = (email: string) =>
      smtp.received.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase())).at(-1)!
    const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `${APP}/session`, payload: { email, password }, headers })
    const browserOf = (res: Awaited<ReturnType<typeof signIn>>): Browser => {
      expect(res.statusCode, res.body).toBe(200)
      const cookie = res.cookies.find((c) => c.name === '__Host-costwatch_session')!
      return { cookie: cookie.value, csrf: res.json().csrfToken }
    }
    const call = (
      browser: Browser | null,
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) =>
      t.app.inject({
        method,
        url,
        ...(body === undefined ? {} : { payload: body as object }),
        headers: {
          ...(browser ? { cookie: `__Host-costwatch_session=${browser.cookie}`, 'x-csrf-token': browser.csrf } : {}),
          ...headers,
        },
      })
    /** Sets the password of an account through the e-mailed reset link. */
    const setPassword = async (email: string, password = PASSWORD) => {
      const asked = await t.app.inject({ method: 'POST', url: `${APP}/password-reset`, payload: { email } })
      expect(asked.statusCode, asked.body).toBe(202)
      await deliver()
      const path = linkOf(lastMailTo(email), 'reset-password')
      const set = await t.request('POST', path, null, form({ password, passwordConfirmation: password }), FORM)
      expect(set.statusCode, set.body).toBe(200)
      return path
    }
    /** An invited member who accepted, with a role on tenant A. */
    const member = async (email: string, role: 'Viewer' | 'Editor' | 'Admin') => {
      const invited = await t.request('POST', `${API}/users`, org.ownerKey, { email })
      expect(invited.statusCode, invited.body).toBe(202)
      await deliver()
      const path = linkOf(lastMailTo(email), 'invite')
      const accepted = await t.request(
        'POST',
        path,
        null,
        form({ displayName: `Member ${role}`, password: PASSWORD, passwordConfirmation: PASSWORD }),
        FORM,
      )
      expect(accepted.statusCode, accepted.body).toBe(200)
      const user = invited.json() as UserRecord
      const granted = await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${user.id}`, org.ownerKey, { role })
      expect(granted.statusCode, granted.body).toBe(200)
      return user
    }

    it('an owner made by org create has no password: "forgot password" sets the first one, through a link that works once', async () => {
      expect((await signIn(ownerEmail, PASSWORD)).statusCode).toBe(401)
      const path = await setPassword(ownerEmail)
      const page = await t.request('GET', path, null, undefined, HTML)
      expect(page.statusCode).toBe(410)
      expect(page.body).toContain('no longer works')
      const again = await t.request(
        'POST',
        path,
        null,
        form({ password: 'another long password', passwordConfirmation: 'another long password' }),
        FORM,
      )
      expect(again.statusCode).toBe(410)
      const browser = browserOf(await signIn(ownerEmail.toUpperCase(), PASSWORD))
      const session = await call(browser, 'GET', `${APP}/session`)
      expect(session.json()).toMatchObject({ user: { id: org.ownerId, isOwner: true, email: ownerEmail } })
    })

    it('the session cookie is HttpOnly, SameSite=Lax, Secure on an https public URL; no secret in the body', async () => {
      const res = await signIn(ownerEmail, PASSWORD)
      const cookie = res.cookies.find((c) => c.name === '__Host-costwatch_session')!
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' })
      expect(res.body).not.toContain(cookie.value)
      expect(res.body).not.toContain(PASSWORD)
      expect(t.logs.join('')).not.toContain(cookie.value)
      expect(t.logs.join('')).not.toContain(PASSWORD)
    })

    it('a wrong password, an unknown address and an account without a password get one 401', async () => {
      const wrong = await signIn(ownerEmail, 'not the password at all')
      const unknown = await signIn('nobody@nowhere.test', PASSWORD)
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401)
        expect(res.json()).toMatchObject({ type: '/problems/sign-in-failed' })
      }
      expect(unknown.json().detail).toBe(wrong.json().detail)
    })

    it('the web interface API takes only the session; the public API takes only API keys', async () => {
      const browser = browserOf(await signIn(ownerEmail, PASSWORD))
      expect((await call(browser, 'GET', `${APP}/tenants`)).statusCode).toBe(200)
      expect((await t.request('GET', `${APP}/tenants`, org.ownerKey)).statusCode).toBe(401)
      expect((await call(browser, 'GET', `${API}/tenants`)).statusCode).toBe(401)
      expect((await t.request('GET', `${API}/tenants`, org.ownerKey)).statusCode).toBe(200)
      // Not in the public document.
      const doc = (await t.request('GET', `${API}/openapi.json`, null)).json()
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/app'))).toEqual([])
    })

    it("a change needs the CSRF token of the session, and the interface's own origin", async () => {
      const browser = browserOf(await signIn(ownerEmail, PASSWORD))
      const marker = { title: 'Deploy 42', category: 'Deployment', occurredAt: NOW }
      const url = `${APP}/tenants/${tenantA.id}/events`
      const without = await call({ ...browser, csrf: '' }, 'POST', url, marker)
      expect(without.statusCode).toBe(403)
      expect(without.json()).toMatchObject({ type: '/problems/csrf' })
      const forged = await call({ ...browser, csrf: 'x'.repeat(43) }, 'POST', url, marker)
      expect(forged.statusCode).toBe(403)
      const elsewhere = await call(browser, 'POST', url, marker, { origin: 'https://evil.example' })
      expect(elsewhere.statusCode).toBe(403)
      const ok = await call(browser, 'POST', url, marker, { origin: PUBLIC_URL })
      expect(ok.statusCode, ok.body).toBe(201)
      expect(ok.json().createdBy).toEqual({ type: 'User', id: org.ownerId, name: ownerEmail })
      // Reads need no token.
      expect((await call({ ...browser, csrf: '' }, 'GET', url)).statusCode).toBe(200)
    })

    it("a user's roles count: no role, no tenant; a Viewer reads; an Editor makes markers as themselves", async () => {
      const viewer = await member('viewer@sessions.test', 'Viewer')
      const browser = browserOf(await signIn('viewer@sessions.test', PASSWORD))
      const tenants = (await call(browser, 'GET', `${APP}/tenants`)).json()
      expect(tenants.items.map((x: TenantRecord) => x.id)).toEqual([tenantA.id])
      expect((await call(browser, 'GET', `${APP}/tenants/${tenantB.id}`)).statusCode).toBe(404)
      expect((await call(browser, 'GET', `${APP}/tenants/${tenantA.id}/events`)).statusCode).toBe(200)
      const marker = { title: 'Launch', category: 'Launch', occurredAt: NOW }
      expect((await call(browser, 'POST', `${APP}/tenants/${tenantA.id}/events`, marker)).statusCode).toBe(403)
      expect((await call(browser, 'GET', `${APP}/users`)).statusCode).toBe(403)

      // A role given while signed in counts from the next request.
      await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${viewer.id}`, org.ownerKey, { role: 'Editor' })
      const made = await call(browser, 'POST', `${APP}/tenants/${tenantA.id}/events`, marker)
      expect(made.statusCode, made.body).toBe(201)
      expect(made.json().createdBy).toEqual({ type: 'User', id: viewer.id, name: 'Member Viewer' })
      // Another Editor may not delete it; its creator may.
      const other = await member('editor@sessions.test', 'Editor')
      const otherBrowser = browserOf(await signIn('editor@sessions.test', PASSWORD))
      const markerUrl = `${APP}/tenants/${tenantA.id}/events/${made.json().id}`
      expect((await call(otherBrowser, 'DELETE', markerUrl)).statusCode).toBe(403)
      expect((await call(browser, 'DELETE', markerUrl)).statusCode).toBe(204)
      expect(other.id).not.toBe(viewer.id)
    })

    it('a disabled user is signed out at once and cannot sign in', async () => {
      const user = await member('leaver@sessions.test', 'Viewer')
      const browser = browserOf(await signIn('leaver@sessions.test', PASSWORD))
      expect((await call(browser, 'GET', `${APP}/session`)).statusCode).toBe(200)
      const disabled = await t.request('PATCH', `${API}/users/${user.id}`, org.ownerKey, { isDisabled: true })
      expect(disabled.statusCode, disabled.body).toBe(200)
      expect((await call(browser, 'GET', `${APP}/session`)).statusCode).toBe(401)
      expect((await signIn('leaver@sessions.test', PASSWORD)).statusCode).toBe(403)
      // And asking for a reset link sends nothing.
      const before = smtp.received.length
      await t.app.inject({ method: 'POST', url: `${APP}/password-reset`, payload: { email: 'leaver@sessions.test' } })
      await deliver()
      expect(smtp.received.length).toBe(before)
    })

    it('sign-out ends the session on the server; an idle or old session ends by itself', async () => {
      const browser = browserOf(await signIn(ownerEmail, PASSWORD))
      const out = await call(browser, 'DELETE', `${APP}/session`)
      expect(out.statusCode).toBe(204)
      expect(out.cookies.find((c) => c.name === '__Host-costwatch_session')?.value).toBe('')
      expect((await call(browser, 'GET', `${APP}/session`)).statusCode).toBe(401)

      const idle = browserOf(await signIn(ownerEmail, PASSWORD))
      t.clock.advance(23 * 3_600_000)
      expect((await call(idle, 'GET', `${APP}/session`)).statusCode).toBe(200) // used: its idle time starts again
      t.clock.advance(23 * 3_600_000)
      expect((await call(idle, 'GET', `${APP}/session`)).statusCode).toBe(200)
      t.clock.advance(24 * 3_600_000 + 1000)
      expect((await call(idle, 'GET', `${APP}/session`)).statusCode).toBe(401)
      t.clock.set(NOW)
    })

    it('a new password ends every session of the account', async () => {
      const email = 'resetter@sessions.test'
      await member(email, 'Viewer')
      const browser = browserOf(await signIn(email, PASSWORD))
      await setPassword(email, 'a brand new passphrase')
      expect((await call(browser, 'GET', `${APP}/session`)).statusCode).toBe(401)
      expect((await signIn(email, PASSWORD)).statusCode).toBe(401)
      browserOf(await signIn(email, 'a brand new passphrase'))
    })

    it('ten failed sign-ins from one address lock only that address out of the account, answered exactly like a wrong password', async () => {
      const email = 'guessed@sessions.test'
      await member(email, 'Viewer')
      const attacker = { remoteAddress: '203.0.113.7' }
      const owner = { remoteAddress: '198.51.100.20' }
      const from = (address: { remoteAddress: string }, who: string, password: string) =>
        t.app.inject({ method: 'POST', url: `${APP}/session`, payload: { email: who, password }, ...address })
      /** What a client can compare between two answers: all but the request's trace id. */
      const answer = (res: Awaited<ReturnType<typeof from>>) => {
        const { traceId, ...body } = res.json()
        expect(traceId).toBeTruthy()
        const { date, 'x-request-id': _id, 'content-length': _length, ...headers } = res.headers
        return { status: res.statusCode, body, headers }
      }
      for (let i = 0; i < 10; i++) expect((await from(attacker, email, `wrong guess number ${i}`)).statusCode).toBe(401)
      // Locked for this address: even the right password gets what an unknown address gets, nothing that says
      // "locked" or "this account".
      const locked = await from(attacker, email, PASSWORD)
      const unknown = await from(attacker, 'nobody-at-all@sessions.test', PASSWORD)
      expect(answer(locked)).toEqual(answer(unknown))
      expect(locked.statusCode).toBe(401)
      expect(locked.headers['retry-after']).toBeUndefined()
      // The owner, elsewhere, is not locked out; nor while the attacker keeps trying once every 15 minutes.
      browserOf(await from(owner, email, PASSWORD))
      for (let i = 0; i < 8; i++) {
        t.clock.advance(15 * 60_000)
        expect((await from(attacker, email, `slow guess number ${i}`)).statusCode).toBe(401)
        browserOf(await from(owner, email, PASSWORD))
      }
      // When the attacker's lock ends its count starts again: one more wrong guess does not lock it again.
      t.clock.advance(15 * 60_000)
      expect((await from(attacker, email, 'one more wrong guess')).statusCode).toBe(401)
      browserOf(await from(attacker, email, PASSWORD))
      t.clock.set(NOW)
    })

    it('a stored hash of weaker parameters is made again at the next successful sign-in, not at a failed one', async () => {
      const email = 'oldhash@sessions.test'
      const user = await member(email, 'Viewer')
      const weak = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 })
      await t.db.kysely.updateTable('users').set({ passwordHash: weak }).where('id', '=', user.id).execute()
      const stored = async () =>
        (await t.db.kysely.selectFrom('users').select('passwordHash').where('id', '=', user.id).executeTakeFirst())!
          .passwordHash!
      expect((await signIn(email, 'not the password at all')).statusCode).toBe(401)
      expect(await stored()).toBe(weak)
      browserOf(await signIn(email, PASSWORD))
      const rehashed = await stored()
      const { N, r, p } = TEST_HASH_PARAMS
      expect(rehashed.split('$').slice(0, 4)).toEqual(['scrypt', String(N), String(r), String(p)])
      expect(await verifyPassword(PASSWORD, rehashed)).toBe(true)
      browserOf(await signIn(email, PASSWORD))
      expect(await stored()).toBe(rehashed)
    })

    it('a reset link replaces the earlier one; an account gets 3 an hour, an address asks 10 times an hour, answered alike', async () => {
      const email = 'forgetful@sessions.test'
      await member(email, 'Viewer')
      const ask = (who: string, remoteAddress: string) =>
        t.app.inject({ method: 'POST', url: `${APP}/password-reset`, payload: { email: who }, remoteAddress })
      const mailsTo = () => smtp.received.filter((m) => m.to.includes(email)).length
      const before = mailsTo()
      const first = await ask(email, '192.0.2.1')
      await deliver()
      const firstLink = linkOf(lastMailTo(email), 'reset-password')
      const second = await ask(email, '192.0.2.2')
      await deliver()
      const secondLink = linkOf(lastMailTo(email), 'reset-password')
      expect(mailsTo()).toBe(before + 2)
      // One live link: the first stopped working when the second was made.
      expect((await t.request('GET', firstLink, null, undefined, HTML)).statusCode).toBe(410)
      expect((await t.request('GET', secondLink, null, undefined, HTML)).statusCode).toBe(200)
      // A third this hour, then no more for the account; the answers stay those of an unknown address.
      const third = await ask(email, '192.0.2.3')
      const fourth = await ask(email, '192.0.2.4')
      const unknown = await ask('no-account@sessions.test', '192.0.2.5')
      await deliver()
      expect(mailsTo()).toBe(before + 3)
      for (const res of [first, second, third, fourth]) {
        expect(res.statusCode).toBe(202)
        expect(res.body).toBe(unknown.body)
      }
      expect((await t.request('GET', secondLink, null, undefined, HTML)).statusCode).toBe(410)
      // An hour on, the account gets a link again.
      t.clock.advance(3_600_000 + 1000)
      await ask(email, '192.0.2.6')
      await deliver()
      expect(mailsTo()).toBe(before + 4)
      // One address asking for many accounts: past 10 requests an hour, no more e-mail, the same 202.
      t.clock.advance(3_600_000 + 1000)
      for (let i = 0; i < 10; i++) expect((await ask(`sprayed-${i}@sessions.test`, '192.0.2.7')).statusCode).toBe(202)
      const limited = await ask(email, '192.0.2.7')
      await deliver()
      expect(limited.statusCode).toBe(202)
      expect(limited.body).toBe(unknown.body)
      expect(mailsTo()).toBe(before + 4)
      t.clock.set(NOW)
    })

    it('sign-ins, failed ones, reset requests and completed resets are in the audit log with the client address, no secret', async () => {
      const email = 'audited@sessions.test'
      const user = await member(email, 'Viewer')
      const from = { remoteAddress: '198.51.100.77' }
      const wrong = 'a wrong guess of a password'
      expect(
        (await t.app.inject({ method: 'POST', url: `${APP}/session`, payload: { email, password: wrong }, ...from }))
          .statusCode,
      ).toBe(401)
      browserOf(
        await t.app.inject({ method: 'POST', url: `${APP}/session`, payload: { email, password: PASSWORD }, ...from }),
      )
      const asked = await t.app.inject({ method: 'POST', url: `${APP}/password-reset`, payload: { email }, ...from })
      expect(asked.statusCode).toBe(202)
      await deliver()
      const path = linkOf(lastMailTo(email), 'reset-password')
      const newPassword = 'the password after the reset'
      const set = await t.app.inject({
        method: 'POST',
        url: path,
        payload: form({ password: newPassword, passwordConfirmation: newPassword }),
        headers: FORM,
        ...from,
      })
      expect(set.statusCode, set.body).toBe(200)

      const owner = browserOf(await signIn(ownerEmail, PASSWORD))
      const entries = async (action: string) => {
        const res = await call(owner, 'GET', `${APP}/audit?action=${action}&pageSize=200`)
        expect(res.statusCode, res.body).toBe(200)
        expect(res.body).not.toContain(wrong)
        expect(res.body).not.toContain(PASSWORD)
        expect(res.body).not.toContain(newPassword)
        expect(res.body).not.toContain(path.split('/').at(-1))
        return (res.json().items as { target: { id: string } }[]).filter((e) => e.target.id === user.id)
      }
      expect(await entries('user.signInFailed')).toMatchObject([
        {
          actor: { type: 'User', id: null, name: 'not signed in' },
          origin: '198.51.100.77',
          detail: { reason: 'wrong-password' },
        },
      ])
      expect(await entries('user.signedIn')).toMatchObject([
        { actor: { type: 'User', id: user.id, name: email }, origin: '198.51.100.77' },
      ])
      expect(await entries('user.passwordResetRequested')).toMatchObject([
        { origin: '198.51.100.77', detail: { linkSent: true } },
      ])
      expect(await entries('user.passwordReset')).toMatchObject([
        { actor: { type: 'User', id: user.id }, origin: '198.51.100.77' },
      ])
      // Another organisation's owner sees none of them.
      const other = await t.given.organisation('Not Theirs Ltd')
      await t.db.kysely
        .updateTable('users')
        .set({ passwordHash: await hashPassword(PASSWORD) })
        .where('id', '=', other.ownerId)
        .execute()
      const theirs = browserOf(await signIn(other.owner.actor.name!, PASSWORD))
      const log = await call(theirs, 'GET', `${APP}/audit?pageSize=200`)
      expect(log.json().items.some((e: { target: { id: string } }) => e.target.id === user.id)).toBe(false)
    })

    it('owners read every tenancy role of the organisation in one answer; no one else, and not with a key', async () => {
      const editor = await member('roles-editor@sessions.test', 'Editor')
      const granted = await t.request('PUT', `${API}/tenancies/${tenantB.id}/users/${editor.id}`, org.ownerKey, {
        role: 'Viewer',
      })
      expect(granted.statusCode, granted.body).toBe(200)
      const owner = browserOf(await signIn(ownerEmail, PASSWORD))
      const roles = await call(owner, 'GET', `${APP}/roles`)
      expect(roles.statusCode, roles.body).toBe(200)
      const items = roles.json().items as { userId: string; tenancyId: string; role: string }[]
      expect(items.filter((r) => r.userId === editor.id).sort((a, b) => a.role.localeCompare(b.role))).toEqual([
        { userId: editor.id, tenancyId: tenantA.id, role: 'Editor' },
        { userId: editor.id, tenancyId: tenantB.id, role: 'Viewer' },
      ])
      // Owners hold no role of their own (they are Admin of every tenancy); another organisation's are not here.
      expect(items.some((r) => r.userId === org.ownerId)).toBe(false)
      const other = await t.given.organisation('Elsewhere Ltd')
      const theirs = await t.given.tenant(other)
      expect(items.some((r) => r.tenancyId === theirs.id)).toBe(false)
      // A member, even an Admin of a tenancy, is refused; the public API has no such list.
      const admin = browserOf(await signIn((await member('roles-admin@sessions.test', 'Admin')).email, PASSWORD))
      expect((await call(admin, 'GET', `${APP}/roles`)).statusCode).toBe(403)
      expect((await t.request('GET', `${API}/roles`, org.ownerKey)).statusCode).toBe(404)
    })

    it('owners manage API keys in the web interface: the secret shown once, scoped, revoked at once, all audited', async () => {
      const browser = browserOf(await signIn(ownerEmail, PASSWORD))
      const made = await call(browser, 'POST', `${APP}/keys`, {
        name: 'CI deploys',
        expiresAt: '2026-06-01T00:00:00Z',
        scope: [{ tenancyId: tenantA.id, role: 'Editor' }],
      })
      expect(made.statusCode, made.body).toBe(201)
      const { key, apiKey } = made.json()
      expect(key).toMatchObject({
        name: 'CI deploys',
        prefix: apiKey.slice(0, 10),
        scope: [{ tenancyId: tenantA.id, role: 'Editor' }],
        expiresAt: '2026-06-01T00:00:00.000Z',
        createdBy: { type: 'User', id: org.ownerId },
      })
      const listed = await call(browser, 'GET', `${APP}/keys`)
      expect(listed.body).not.toContain(apiKey)
      expect(listed.json().items.map((k: { id: string }) => k.id)).toContain(key.id)
      expect((await t.request('GET', `${API}/tenants/${tenantA.id}`, apiKey)).statusCode).toBe(200)
      expect((await t.request('GET', `${API}/tenants/${tenantB.id}`, apiKey)).statusCode).toBe(404)
      const bad = await call(browser, 'POST', `${APP}/keys`, {
        name: '',
        scope: 'owner',
        expiresAt: '2020-01-01T00:00:00Z',
      })
      expect(bad.statusCode).toBe(400)
      expect(Object.keys(bad.json().errors).sort()).toEqual(['expiresAt', 'name'])

      expect((await call(browser, 'DELETE', `${APP}/keys/${key.id}`)).statusCode).toBe(204)
      expect((await t.request('GET', `${API}/tenants/${tenantA.id}`, apiKey)).statusCode).toBe(401)
      expect((await call(browser, 'DELETE', `${APP}/keys/${crypto.randomUUID()}`)).statusCode).toBe(404)

      // Sign-ins are audited too: the key entries alone here.
      const audit = (await call(browser, 'GET', `${APP}/audit?limit=1000`))
        .json()
        .items.filter((e: { action: string }) => e.action.startsWith('apiKey.'))
      expect(audit.slice(0, 2)).toMatchObject([
        { action: 'apiKey.revoked', actor: { type: 'User', id: org.ownerId }, target: { id: key.id } },
        { action: 'apiKey.created', actor: { type: 'User', id: org.ownerId }, target: { id: key.id } },
      ])
      expect(audit[0].origin).not.toBe('cli')

      await member('nosy@sessions.test', 'Admin')
      const nosy = browserOf(await signIn('nosy@sessions.test', PASSWORD))
      for (const url of [`${APP}/keys`, `${APP}/audit`]) expect((await call(nosy, 'GET', url)).statusCode).toBe(403)
      expect((await call(nosy, 'POST', `${APP}/keys`, { name: 'mine', scope: 'owner' })).statusCode).toBe(403)
    })
  })
}

for (const dialect of testDialects()) {
  describe(`${dialect}: failed sign-ins from one address`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_AUTH_FAILURE_LIMIT: '3' } })

    it('past the per-address limit a sign-in is refused with 429, whatever the account', async () => {
      const tries = []
      for (let i = 0; i < 4; i++)
        tries.push(
          await t.app.inject({
            method: 'POST',
            url: `${APP}/session`,
            payload: { email: `someone-${i}@example.test`, password: 'not a password at all' },
          }),
        )
      expect(tries.map((r) => r.statusCode)).toEqual([401, 401, 401, 429])
      expect(tries[3]!.headers['retry-after']).toBeDefined()
    })
  })
}
