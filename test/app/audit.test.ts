import { beforeAll, describe, expect, it } from 'vitest'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { signInOwner } from '../support/members.js'

const API = '/api/public/v1'
const APP = '/api/app'

for (const dialect of testDialects()) {
  describe(`${dialect}: the audit log in the web interface's API`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let cookie: string
    const invitees = ['ada@audit.test', 'ben@audit.test', 'cy@audit.test']

    beforeAll(async () => {
      org = await t.given.organisation('Audited Ltd')
      const tenant = await t.given.tenant(org, { name: 'A' })
      let cyId = ''
      for (const email of invitees) {
        t.clock.advance(60_000)
        const invited = await t.request('POST', `${API}/users`, org.ownerKey, { email })
        expect(invited.statusCode, invited.body).toBe(202)
        cyId = invited.json().id
      }
      t.clock.advance(60_000)
      const granted = await t.request('PUT', `${API}/tenancies/${tenant.id}/users/${cyId}`, org.ownerKey, {
        role: 'Viewer',
      })
      expect(granted.statusCode, granted.body).toBe(200)
      // Another organisation's changes are never in this one's log.
      await t.given.organisation('Someone Else')

      cookie = (await signInOwner(t, org)).cookie.value
    })

    const list = (query: string) =>
      t.app.inject({ method: 'GET', url: `${APP}/audit${query}`, headers: { cookie: `costwatch_session=${cookie}` } })

    it('pages the log newest first, with the page envelope and its links', async () => {
      const first = await list('?page=1&pageSize=2')
      expect(first.statusCode, first.body).toBe(200)
      // The owner's sign-in (the session these requests use) is the newest entry, the tenant's creation the second.
      expect(first.json()).toMatchObject({ page: 1, pageSize: 2, totalCount: 7, totalPages: 4 })
      expect(first.json().items.map((e: { action: string }) => e.action)).toEqual(['user.signedIn', 'user.roleGranted'])
      expect(first.headers.link).toContain('rel="next"')
      const third = (await list('?page=3&pageSize=2')).json()
      expect(third.items.map((e: { action: string }) => e.action)).toEqual(['user.invited', 'tenant.created'])
      expect(third.items[1]).toMatchObject({
        target: { type: 'Tenant' },
        detail: { name: 'A', clientSecretStored: false },
      })
      const last = (await list('?page=4&pageSize=2')).json()
      expect(last.items.map((e: { action: string }) => e.action)).toEqual(['apiKey.created'])
      expect(last.items[0]).toMatchObject({ target: { type: 'ApiKey' }, origin: 'cli', detail: { name: 'Owner key' } })
      // `limit` is still the newest N.
      expect((await list('?limit=2')).json()).toMatchObject({ page: 1, pageSize: 2, items: first.json().items })
    })

    it('filters by the kind of change', async () => {
      const invited = (await list('?action=user.invited')).json()
      expect(invited.totalCount).toBe(3)
      expect(
        invited.items.map((e: { detail: { email?: string } | null; target: { type: string } }) => e.target.type),
      ).toEqual(['User', 'User', 'User'])
      const none = (await list('?action=user.disabled')).json()
      expect(none).toMatchObject({ items: [], totalCount: 0, totalPages: 0 })
    })

    it('refuses a bad query precisely', async () => {
      const mixed = await list('?limit=5&page=2')
      expect(mixed.statusCode).toBe(400)
      expect(mixed.json().errors).toEqual({ limit: ['cannot be combined with page or pageSize'] })
      for (const query of ['?action=user.exploded', '?pageSize=201', '?page=0', '?colour=blue'])
        expect((await list(query)).statusCode, query).toBe(400)
    })
  })
}
