import { describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/platform/crypto.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

for (const dialect of testDialects()) {
  describe(`${dialect}: API key authentication`, () => {
    const t = useTestApp({ dialect })
    let org: OrgContext
    let unauthorizedBody: string

    async function expect401(key: string | null, headers: Record<string, string> = {}) {
      const res = await t.request('GET', `${API}/organisation`, key, undefined, headers)
      expect(res.statusCode, res.body).toBe(401)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      const { traceId: _t, ...rest } = res.json()
      const body = JSON.stringify(rest)
      unauthorizedBody ??= body
      expect(body).toBe(unauthorizedBody) // the same body whatever the cause
    }

    it('accepts the header in any casing', async () => {
      org = await t.given.organisation('Casing Ltd')
      for (const name of ['X-Api-Key', 'x-api-key', 'X-API-KEY', 'x-Api-kEy']) {
        const res = await t.app.inject({ method: 'GET', url: `${API}/organisation`, headers: { [name]: org.ownerKey } })
        expect(res.statusCode, name).toBe(200)
        expect(res.json()).toMatchObject({ name: 'Casing Ltd', plan: 'free', tenancyCount: 0 })
      }
    })

    it('401 for a missing key, and for a bearer token instead of X-Api-Key', async () => {
      await expect401(null)
      await expect401(null, { authorization: `Bearer ${org.ownerKey}` })
    })

    it('401 for malformed keys: wrong prefix, length, alphabet or checksum', async () => {
      const good = org.ownerKey
      await expect401('not-a-key')
      await expect401(`xx_${good.slice(3)}`)
      await expect401(good.slice(0, -1))
      await expect401(`${good}A`)
      await expect401(`${good.slice(0, 10)}-${good.slice(11)}`)
      const flipped = good.slice(-1) === 'A' ? 'B' : 'A'
      await expect401(`${good.slice(0, -1)}${flipped}`) // checksum no longer matches
    })

    it('401 for a well-formed key that was never issued', async () => {
      await expect401(generateApiKey())
    })

    it('401 once a key expires, from the expiry instant on', async () => {
      const expiring = await t.given.key(org, null, { expiresAt: '2026-03-01T10:00:00.000Z' })
      expect((await t.request('GET', `${API}/organisation`, expiring.apiKey)).statusCode).toBe(200)
      t.clock.set('2026-03-01T09:59:59.999Z')
      expect((await t.request('GET', `${API}/organisation`, expiring.apiKey)).statusCode).toBe(200)
      t.clock.set('2026-03-01T10:00:00.000Z')
      await expect401(expiring.apiKey)
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('401 for every request after a revocation commits', async () => {
      const key = await t.given.key(org, null)
      expect((await t.request('GET', `${API}/organisation`, key.apiKey)).statusCode).toBe(200)
      await t.services.apiKeys.revoke(org.organisationId, key.id)
      await expect401(key.apiKey)
      const [listed] = (await t.services.apiKeys.list(org.organisationId)).filter((k) => k.id === key.id)
      expect(listed?.revokedAt).toBe('2026-03-01T09:00:00.000Z')
    })

    it("another organisation's key id cannot be revoked: 404 like an unknown id, and the key keeps working", async () => {
      const other = await t.given.organisation('Foreign Ltd')
      const foreign = await t.given.key(other, null)
      const refused = t.services.apiKeys.revoke(org.organisationId, foreign.id)
      await expect(refused).rejects.toMatchObject({ status: 404, message: `API key ${foreign.id} was not found.` })
      const unknown = t.services.apiKeys.revoke(org.organisationId, '0190a0a0-0000-7000-8000-000000000000')
      await expect(unknown).rejects.toMatchObject({ status: 404 })
      expect((await t.request('GET', `${API}/organisation`, foreign.apiKey)).statusCode).toBe(200)
      const [listed] = (await t.services.apiKeys.list(other.organisationId)).filter((k) => k.id === foreign.id)
      expect(listed?.revokedAt).toBeNull()
    })

    it("another organisation's key sees none of this organisation's tenants (404, not 403)", async () => {
      const tenant = await t.given.tenant(org)
      const other = await t.given.organisation('Other Inc')
      const res = await t.request('GET', `${API}/tenants/${tenant.id}`, other.ownerKey)
      expect(res.statusCode, res.body).toBe(404)
      const list = await t.request('GET', `${API}/tenants`, other.ownerKey)
      expect(list.json()).toMatchObject({ items: [], totalCount: 0 })
    })

    it('records lastUsedAt, at most once a minute', async () => {
      const key = await t.given.key(org, null, { name: 'touch' })
      const lastUsed = async () =>
        (await t.services.apiKeys.list(org.organisationId)).find((k) => k.id === key.id)?.lastUsedAt
      /** A request with the key, and then its lastUsedAt write, if it started one (it runs after the answer). */
      const use = async () => {
        const res = await t.request('GET', `${API}/organisation`, key.apiKey)
        expect(res.statusCode, res.body).toBe(200)
        await t.services.apiKeys.touchesSettled()
      }
      expect(await lastUsed()).toBeNull()
      await use()
      expect(await lastUsed()).toBe('2026-03-01T09:00:00.000Z')
      t.clock.advance(30_000)
      await use()
      expect(await lastUsed()).toBe('2026-03-01T09:00:00.000Z') // within the minute: not written again
      t.clock.advance(31_000)
      await use()
      expect(await lastUsed()).toBe('2026-03-01T09:01:01.000Z')
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('lists keys with prefix and scope but never the secret or its hash', async () => {
      const tenant = await t.given.tenant(org)
      const scoped = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Editor' }], { name: 'ci' })
      const keys = await t.services.apiKeys.list(org.organisationId)
      const ci = keys.find((k) => k.id === scoped.id)
      expect(ci).toMatchObject({
        name: 'ci',
        prefix: scoped.apiKey.slice(0, 10),
        scope: [{ tenancyId: tenant.id, role: 'Editor' }],
      })
      expect(JSON.stringify(keys)).not.toContain(scoped.apiKey)
      expect(JSON.stringify(keys)).not.toMatch(/[0-9a-f]{64}/)
    })

    it('refuses scoped keys on tenancies of another organisation', async () => {
      const other = await t.given.organisation('Third')
      const foreign = await t.given.tenant(other)
      await expect(t.given.key(org, [{ tenancyId: foreign.id, role: 'Viewer' }])).rejects.toMatchObject({ status: 400 })
    })
  })

  describe(`${dialect}: failed authentications are limited per client address`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_AUTH_FAILURE_LIMIT: '5', COSTWATCH_RATE_LIMIT: '8' } })
    const from = (remoteAddress: string, key: string | null) =>
      t.app.inject({
        method: 'GET',
        url: `${API}/organisation`,
        remoteAddress,
        headers: key ? { 'x-api-key': key } : {},
      })

    it('429 with Retry-After past N failures a minute from one address; other addresses still get 401', async () => {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await from('10.0.0.1', generateApiKey())).statusCode)
      statuses.push((await from('10.0.0.1', null)).statusCode)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
      const limited = await from('10.0.0.1', 'cw_garbage')
      expect(limited.statusCode).toBe(429)
      expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
      expect(limited.json()).toMatchObject({
        type: '/problems/rate-limited',
        status: 429,
        traceId: limited.headers['x-request-id'],
        detail: expect.stringContaining('failed authentications from this address'),
      })
      expect((await from('10.0.0.2', generateApiKey())).statusCode).toBe(401)
    })

    it('a good key from the limited address keeps working, up to its own limit and no lower', async () => {
      const org = await t.given.organisation('Shared NAT')
      expect((await from('10.0.0.1', generateApiKey())).statusCode).toBe(429)
      const statuses: number[] = []
      for (let i = 0; i < 9; i++) statuses.push((await from('10.0.0.1', org.ownerKey)).statusCode)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429])
      // Bad keys from that address are still refused with 429 meanwhile.
      expect((await from('10.0.0.1', generateApiKey())).statusCode).toBe(429)
    })
  })
}
