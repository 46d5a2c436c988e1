import { beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { activeMember, asBrowser, signIn } from '../support/members.js'

const API = '/api/public/v1'
const APP = '/api/app'

/**
 * A key made by a user in the web interface acts with at most the user's rights of the moment: checked on every
 * request, so a disabled creator's key is refused and a demoted one's keeps only the roles the user still holds.
 */
for (const dialect of testDialects()) {
  describe(`${dialect}: a key made by a user acts within the user's current rights`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let tenantA: TenantRecord
    let tenantB: TenantRecord
    const patchUser = (userId: string, body: object, key = org.ownerKey) =>
      t.request('PATCH', `${API}/users/${userId}`, key, body)
    const ids = (res: { json(): { items: { id: string }[] } }) => res.json().items.map((x) => x.id)

    beforeAll(async () => {
      org = await t.given.organisation('Keyed Ltd')
      tenantA = await t.given.tenant(org, { name: 'A' })
      tenantB = await t.given.tenant(org, { name: 'B' })
    })

    /** An owner who signs in and makes a key in the web interface. */
    async function ownerWithKey(email: string, scope: unknown = 'owner') {
      const user = await activeMember(t, org, email, { owner: true })
      const browser = await signIn(t, email)
      const made = await asBrowser(t, browser, 'POST', `${APP}/keys`, { name: `${email}'s key`, scope })
      expect(made.statusCode, made.body).toBe(201)
      return { user, browser, key: made.json().key, apiKey: made.json().apiKey as string }
    }

    it('a disabled, demoted owner cannot make herself an active owner again with her owner key (401)', async () => {
      const { user, apiKey } = await ownerWithKey('mallory@keyed.test')
      expect((await t.request('GET', `${API}/users`, apiKey)).statusCode).toBe(200)
      expect((await patchUser(user.id, { isDisabled: true, isOwner: false })).statusCode).toBe(200)

      const comeback = await patchUser(user.id, { isDisabled: false, isOwner: true }, apiKey)
      expect(comeback.statusCode, comeback.body).toBe(401)
      expect(comeback.json().type).toBe('/problems/unauthorized')
      const after = (await t.request('GET', `${API}/users/${user.id}`, org.ownerKey)).json()
      expect(after).toMatchObject({ isDisabled: true, isOwner: false, status: 'Disabled' })
      // Refused like any bad key, on every route.
      const noKey = await t.request('GET', `${API}/tenants`, null)
      const refused = await t.request('GET', `${API}/tenants`, apiKey)
      expect(refused.statusCode).toBe(401)
      expect(refused.json().title).toBe(noKey.json().title)
    })

    it("a demoted owner's owner key keeps only the roles she still holds", async () => {
      const { user, apiKey } = await ownerWithKey('demoted@keyed.test')
      const viewer = await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${user.id}`, org.ownerKey, {
        role: 'Viewer',
      })
      expect(viewer.statusCode, viewer.body).toBe(200)
      expect(ids(await t.request('GET', `${API}/tenants`, apiKey)).sort()).toEqual([tenantA.id, tenantB.id].sort())
      expect((await patchUser(user.id, { isOwner: false })).statusCode).toBe(200)

      expect(ids(await t.request('GET', `${API}/tenants`, apiKey))).toEqual([tenantA.id])
      expect((await t.request('GET', `${API}/tenants/${tenantB.id}`, apiKey)).statusCode).toBe(404)
      expect((await t.request('GET', `${API}/users`, apiKey)).statusCode).toBe(403)
      expect((await patchUser(user.id, { isOwner: true }, apiKey)).statusCode).toBe(403)
      const marker = { title: 'Deploy', category: 'Deployment', occurredAt: '2026-03-01T08:00:00.000Z' }
      expect((await t.request('POST', `${API}/tenants/${tenantA.id}/events`, apiKey, marker)).statusCode).toBe(403)
      expect((await t.request('GET', `${API}/tenants/${tenantA.id}/events`, apiKey)).statusCode).toBe(200)

      // A role given back counts from the next request; so does owner status.
      await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${user.id}`, org.ownerKey, { role: 'Editor' })
      expect((await t.request('POST', `${API}/tenants/${tenantA.id}/events`, apiKey, marker)).statusCode).toBe(201)
      await patchUser(user.id, { isOwner: true })
      expect((await t.request('GET', `${API}/users`, apiKey)).statusCode).toBe(200)
    })

    it("a scoped key holds, on each tenancy, the lower of its role and its creator's, and none where she has none", async () => {
      const { user, apiKey } = await ownerWithKey('scoped@keyed.test', [
        { tenancyId: tenantA.id, role: 'Admin' },
        { tenancyId: tenantB.id, role: 'Viewer' },
      ])
      await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${user.id}`, org.ownerKey, { role: 'Editor' })
      await patchUser(user.id, { isOwner: false })
      expect(ids(await t.request('GET', `${API}/tenants`, apiKey))).toEqual([tenantA.id])
      expect((await t.request('GET', `${API}/tenants/${tenantB.id}`, apiKey)).statusCode).toBe(404)
      const marker = { title: 'Launch', category: 'Launch', occurredAt: '2026-03-01T08:00:00.000Z' }
      expect((await t.request('POST', `${API}/tenants/${tenantA.id}/events`, apiKey, marker)).statusCode).toBe(201)
      // Editor, not the key's Admin: granting roles needs Admin.
      const grant = await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${user.id}`, apiKey, { role: 'Admin' })
      expect(grant.statusCode, grant.body).toBe(403)
    })

    it('a creator with no role left gives a key that sees nothing: empty lists, 404s, never a 500', async () => {
      const { user, apiKey } = await ownerWithKey('emptied@keyed.test')
      await patchUser(user.id, { isOwner: false })
      for (const list of ['tenants', 'anomalies', 'insights', 'reports']) {
        const res = await t.request('GET', `${API}/${list}`, apiKey)
        expect(res.statusCode, `${list}: ${res.body}`).toBe(200)
        expect(res.json()).toMatchObject({ items: [], totalCount: 0 })
      }
      const org2 = await t.request('GET', `${API}/organisation`, apiKey)
      expect(org2.statusCode, org2.body).toBe(200)
      expect(org2.json().tenancyCount).toBe(0)
      expect((await t.request('GET', `${API}/tenants/${tenantA.id}`, apiKey)).statusCode).toBe(404)
    })

    it('keys made on the command line keep their scope; the list says who made each key', async () => {
      const cli = await t.given.key(org, null, { name: 'from the command line' })
      const { user, browser, key } = await ownerWithKey('lister@keyed.test')
      await patchUser(user.id, { isDisabled: true })
      expect((await t.request('GET', `${API}/users`, cli.apiKey)).statusCode).toBe(200)
      // The organisation's first key was made by `org create`, on the command line, for its owner.
      expect((await t.request('GET', `${API}/users`, org.ownerKey)).statusCode).toBe(200)

      await patchUser(user.id, { isDisabled: false })
      const again = await signIn(t, user.email)
      const listed = await asBrowser(t, again, 'GET', `${APP}/keys`)
      expect(listed.statusCode, listed.body).toBe(200)
      const byName = new Map(listed.json().items.map((k: { name: string }) => [k.name, k]))
      expect(byName.get(key.name)).toMatchObject({
        createdBy: { type: 'User', id: user.id, name: `Member ${user.email}` },
        createdByEmail: user.email,
      })
      expect(byName.get('Owner key')).toMatchObject({
        createdBy: { type: 'System', id: null, name: 'command line' },
        createdByEmail: null,
      })
      expect(browser.cookie).not.toBe(again.cookie)
    })
  })
}
