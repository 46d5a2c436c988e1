import { beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

interface TagKey {
  key: string
  resourceCount: number
  valueCount: number
  values: string[]
  valuesTruncated: boolean
}

for (const dialect of testDialects()) {
  describe(`${dialect}: tag keys and values of a tenant`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let tenant: TenantRecord
    let empty: TenantRecord
    /** Every resource's tags, read through the resource list: what the answer must agree with. */
    let resourceTags: Record<string, string>[]

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      await t.services.snapshots.trigger(org.owner, tenant.id, true)
      while (await t.worker().runOnce()) {}
      empty = await t.given.tenant(org) // after the worker: no snapshot has run for it
      resourceTags = []
      for (let page = 1; ; page++) {
        const res = await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/resources?pageSize=200&page=${page}`,
          org.ownerKey,
        )
        const items = res.json().items as { tags: Record<string, string> }[]
        if (items.length === 0) break
        resourceTags.push(...items.map((r) => r.tags))
      }
    }, 120_000)

    const tags = (query = '', key: string | null = org.ownerKey, tenantId = tenant.id) =>
      t.request('GET', `${API}/tenants/${tenantId}/tags${query}`, key)

    it('lists every key with its distinct values and counts, keys in any letter case as one', async () => {
      const viewer = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Viewer' }])
      const res = await tags('', viewer.apiKey)
      expect(res.statusCode, res.body).toBe(200)
      const body = res.json() as { tenantId: string; keys: TagKey[]; keysTruncated: boolean }
      expect(body.tenantId).toBe(tenant.id)
      expect(body.keysTruncated).toBe(false)

      const expected = new Map<string, { resources: number; values: Set<string> }>()
      for (const set of resourceTags) {
        const seen = new Set<string>()
        for (const [key, value] of Object.entries(set)) {
          const lower = key.toLowerCase()
          const entry = expected.get(lower) ?? { resources: 0, values: new Set() }
          if (!seen.has(lower)) entry.resources++
          seen.add(lower)
          entry.values.add(value)
          expected.set(lower, entry)
        }
      }
      expect(body.keys.map((k) => k.key.toLowerCase()).sort()).toEqual([...expected.keys()].sort())
      for (const k of body.keys) {
        const want = expected.get(k.key.toLowerCase())!
        expect(k.resourceCount, k.key).toBe(want.resources)
        expect(k.valueCount, k.key).toBe(want.values.size)
        expect(new Set(k.values), k.key).toEqual(want.values)
      }
      // Most used first; the estate spells `environment` as `Environment` on a few resources: one key, the usual spelling.
      const counts = body.keys.map((k) => k.resourceCount)
      expect(counts).toEqual([...counts].sort((a, b) => b - a))
      expect(body.keys.filter((k) => k.key.toLowerCase() === 'environment').map((k) => k.key)).toEqual(['environment'])
    })

    it('answers one key in any letter case, and nothing for a key no resource carries', async () => {
      const res = await tags('?key=ENVIRONMENT')
      expect(res.statusCode, res.body).toBe(200)
      const keys = res.json().keys as TagKey[]
      expect(keys).toHaveLength(1)
      const environments = new Set(
        resourceTags.flatMap((set) => Object.entries(set).filter(([k]) => k.toLowerCase() === 'environment')),
      )
      expect(new Set(keys[0]!.values)).toEqual(new Set([...environments].map(([, v]) => v)))

      const none = await tags('?key=no-such-key')
      expect(none.json()).toEqual({ tenantId: tenant.id, keys: [], keysTruncated: false })
      const bare = await tags('', org.ownerKey, empty.id)
      expect(bare.json()).toEqual({ tenantId: empty.id, keys: [], keysTruncated: false })
    })

    it('refuses a bad key filter, and hides the tenant from a key of another tenancy or organisation', async () => {
      const tooLong = await tags(`?key=${'k'.repeat(513)}`)
      expect(tooLong.statusCode).toBe(400)
      expect(tooLong.json().errors).toHaveProperty('key')
      expect((await tags('?key=')).statusCode).toBe(400)
      const elsewhere = await t.given.key(org, [{ tenancyId: empty.id, role: 'Admin' }])
      expect((await tags('', elsewhere.apiKey)).statusCode).toBe(404)
      const stranger = await t.given.organisation('Strangers')
      expect((await tags('', stranger.ownerKey)).statusCode).toBe(404)
      expect((await tags('', null)).statusCode).toBe(401)
    })
  })
}
