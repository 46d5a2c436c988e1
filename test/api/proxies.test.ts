import { describe, expect, it } from 'vitest'
import { type OrgContext, type TestApp, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { signInOwner } from '../support/members.js'

/**
 * Behind a reverse proxy: the session cookie's name and HSTS on an https public URL, and whose X-Forwarded-For
 * gives the client address (COSTWATCH_TRUST_PROXY) for the failed-authentication limit and the audit log.
 */
const API = '/api/public/v1'
const APP = '/api/app'

const signedIn = async (t: TestApp, org: OrgContext) => (await signInOwner(t, org)).response

/** A request with a bad key from `peer`, forwarded for `client` when given. */
function badKey(t: TestApp, peer: string, client?: string) {
  return t.app.inject({
    method: 'GET',
    url: `${API}/organisation`,
    remoteAddress: peer,
    headers: { 'x-api-key': 'cw_nonsense', ...(client ? { 'x-forwarded-for': client } : {}) },
  })
}

for (const dialect of testDialects()) {
  describe(`${dialect}: an https public URL behind trusted proxies`, () => {
    const t = useTestApp({
      dialect,
      env: {
        COSTWATCH_PUBLIC_URL: 'https://costwatch.example.test',
        COSTWATCH_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16',
        COSTWATCH_AUTH_FAILURE_LIMIT: '3',
      },
    })
    let org: OrgContext

    it('the session cookie is __Host-costwatch_session: Secure, HttpOnly, Path=/, no Domain; cleared the same way', async () => {
      org = await t.given.organisation()
      const res = await signedIn(t, org)
      expect(res.cookies.map((c) => c.name)).toEqual(['__Host-costwatch_session'])
      const cookie = res.cookies[0]!
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' })
      expect(cookie.domain).toBeUndefined()
      const session = (name: string) =>
        t.app.inject({ method: 'GET', url: `${APP}/session`, cookies: { [name]: cookie.value } })
      expect((await session('__Host-costwatch_session')).statusCode).toBe(200)
      // The plain name, which a plain-http page or a sibling subdomain could set, is no session here.
      expect((await session('costwatch_session')).statusCode).toBe(401)
      const out = await t.app.inject({
        method: 'DELETE',
        url: `${APP}/session`,
        cookies: { '__Host-costwatch_session': cookie.value },
        headers: { 'x-csrf-token': res.json().csrfToken },
      })
      expect(out.statusCode).toBe(204)
      expect(out.cookies[0]).toMatchObject({ name: '__Host-costwatch_session', value: '', secure: true, path: '/' })
    })

    it('HSTS on every answer: the API, its errors, the router errors, pages and health', async () => {
      for (const [url, status] of [
        [`${API}/organisation`, 200],
        [`${API}/organisation?x=1`, 200],
        [`${API}/tenants/not-a-uuid`, 400],
        [`${API}/tenants/%zz`, 400],
        [`${API}/nothing-here`, 404],
        ['/sign-in', 404], // the web interface is not built in these tests: its page says so
        ['/healthz', 200],
      ] as const) {
        const res = await t.request('GET', url, org.ownerKey)
        expect(res.statusCode, `${url}: ${res.body}`).toBe(status)
        expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000')
      }
    })

    it("a trusted proxy's X-Forwarded-For is the client address: its own failure count, and the audit origin", async () => {
      for (let i = 0; i < 3; i++) expect((await badKey(t, '10.0.0.5', '203.0.113.7')).statusCode).toBe(401)
      expect((await badKey(t, '10.0.0.5', '203.0.113.7')).statusCode).toBe(429)
      // Another client behind the same proxy (or another proxy of the range) is not held up by it.
      expect((await badKey(t, '10.0.0.5', '203.0.113.8')).statusCode).toBe(401)
      expect((await badKey(t, '10.1.2.3', '203.0.113.9')).statusCode).toBe(401)
      // A client naming another address in front of its own gets its own, the one the proxy saw.
      expect((await badKey(t, '10.0.0.5', '198.51.100.1, 203.0.113.7')).statusCode).toBe(429)

      const invited = await t.app.inject({
        method: 'POST',
        url: `${API}/users`,
        remoteAddress: '10.1.0.9',
        headers: { 'x-api-key': org.ownerKey, 'x-forwarded-for': '203.0.113.20' },
        payload: { email: 'jane@example.test' },
      })
      expect(invited.statusCode, invited.body).toBe(202)
      const [entry] = (
        await t.services.audit.page({ organisationId: org.organisationId, paging: { page: 1, pageSize: 1 } })
      ).items
      expect(entry).toMatchObject({ action: 'user.invited', origin: '203.0.113.20' })
    })

    it("an untrusted peer's X-Forwarded-For is ignored: its failures are its own, whatever it claims", async () => {
      for (let i = 0; i < 3; i++)
        expect((await badKey(t, '198.51.100.50', `203.0.113.${100 + i}`)).statusCode).toBe(401)
      expect((await badKey(t, '198.51.100.50', '203.0.113.200')).statusCode).toBe(429)
      expect((await badKey(t, '198.51.100.50')).statusCode).toBe(429)
    })
  })

  describe(`${dialect}: plain http, no proxy trusted (the defaults)`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_AUTH_FAILURE_LIMIT: '3' } })

    it('the cookie is costwatch_session, not Secure; no HSTS; X-Forwarded-For is ignored', async () => {
      const org = await t.given.organisation()
      const res = await signedIn(t, org)
      expect(res.cookies.map((c) => c.name)).toEqual(['costwatch_session'])
      expect(res.cookies[0]!.secure).toBeUndefined()
      expect(res.headers['strict-transport-security']).toBeUndefined()
      expect((await t.request('GET', `${API}/nothing-here`)).headers['strict-transport-security']).toBeUndefined()
      for (let i = 0; i < 3; i++) expect((await badKey(t, '127.0.0.1', `203.0.113.${i}`)).statusCode).toBe(401)
      expect((await badKey(t, '127.0.0.1', '203.0.113.50')).statusCode).toBe(429)
    })
  })
}
