import { beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

type Row = Record<string, unknown> & { id: string; name: string; tags: Record<string, string> }

/** The value of a tag whose key matches ignoring case, as the filter compares keys. */
const tagValues = (r: { tags: Record<string, string> }, key: string) =>
  Object.entries(r.tags)
    .filter(([k]) => k.toLowerCase() === key.toLowerCase())
    .map(([, v]) => v)

for (const dialect of testDialects()) {
  describe(`${dialect}: inventory tag filter, name search, sort and resource types`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let tenant: TenantRecord
    let all: Row[]

    const get = async (path: string) => t.request('GET', `${API}/tenants/${tenant.id}${path}`, org.ownerKey)
    /** Every item of a filtered list, walking its pages, whose totalCount must be what they hold. */
    async function walk(path: string, pageSize = 50): Promise<Row[]> {
      const items: Row[] = []
      for (let page = 1; ; page++) {
        const res = await get(`${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=${pageSize}`)
        expect(res.statusCode, res.body).toBe(200)
        const body = res.json() as { items: Row[]; totalCount: number }
        if (body.items.length === 0) {
          expect(body.totalCount, path).toBe(items.length)
          return items
        }
        items.push(...body.items)
      }
    }
    const ids = (rows: Row[]) => rows.map((r) => r.id)

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      await t.services.snapshots.trigger(org.owner, tenant.id, true)
      while (await t.worker().runOnce()) {}
      // A name with LIKE's wildcards in it, seen later than the rest: a search must take them literally.
      const [group] = (await get('/resource-groups?pageSize=1')).json().items
      await t.db.kysely
        .insertInto('resources')
        .values({
          id: '01900000-0000-7000-8000-0000000000bb',
          tenantId: tenant.id,
          subscriptionId: group.subscriptionId,
          resourceGroupId: group.id,
          resourceGroupName: group.name,
          armId: `${group.armId}/providers/Microsoft.Cache/redis/Cache_50%Off`,
          armIdLower: `${group.armId}/providers/Microsoft.Cache/redis/Cache_50%Off`.toLowerCase(),
          name: 'Cache_50%Off',
          resourceType: 'microsoft.cache/Redis',
          location: 'westeurope',
          tags: JSON.stringify({ CostCenter: 'cc:42', empty: '', 'odd"key\\': 'x' }),
          sku: null,
          state: null,
          properties: '{}',
          firstSeenAt: '2026-03-02T09:00:00.000Z',
          lastSeenAt: '2026-03-02T09:00:00.000Z',
        })
        .execute()
      all = await walk('/resources', 200)
      expect(all.length).toBe(241)
    }, 120_000)

    it('filters by tag: key:value (key ignoring case, value exact), key alone, several together', async () => {
      const owner = all.find((r) => tagValues(r, 'owner').length > 0)!
      const value = tagValues(owner, 'owner')[0]!
      const byValue = all.filter((r) => tagValues(r, 'owner').includes(value))
      expect(byValue.length).toBeLessThan(all.filter((r) => tagValues(r, 'owner').length > 0).length)
      expect(ids(await walk(`/resources?tag=${encodeURIComponent(`OWNER:${value}`)}`))).toEqual(ids(byValue))
      expect(await walk(`/resources?tag=${encodeURIComponent(`owner:${value.toUpperCase()}`)}`)).toEqual([])

      const hasOwner = all.filter((r) => tagValues(r, 'owner').length > 0)
      expect(ids(await walk('/resources?tag=Owner'))).toEqual(ids(hasOwner))

      // The second spelling of a key counts as the key: Environment or environment.
      const env = tagValues(all.find((r) => 'Environment' in r.tags)!, 'environment')[0]!
      const both = all.filter((r) => tagValues(r, 'environment').includes(env) && tagValues(r, 'owner').length > 0)
      expect(both.length).toBeGreaterThan(0)
      const path = `/resources?tag=environment:${encodeURIComponent(env)}&tag=owner`
      expect(ids(await walk(path))).toEqual(ids(both))
      const inSubscription = both.filter((r) => r.subscriptionId === both[0]!.subscriptionId)
      expect(ids(await walk(`${path}&subscriptionId=${both[0]!.subscriptionId}`))).toEqual(ids(inSubscription))

      // The value is what follows the first colon, colons included; an empty value is a value.
      expect(ids(await walk('/resources?tag=costcenter:cc:42'))).toEqual(['01900000-0000-7000-8000-0000000000bb'])
      expect(ids(await walk('/resources?tag=empty:'))).toEqual(['01900000-0000-7000-8000-0000000000bb'])
      expect(await walk('/resources?tag=costcenter:cc')).toEqual([])
      // Quotes and backslashes in a key, and LIKE's wildcards, are taken literally.
      const odd = encodeURIComponent('ODD"key\\:x')
      expect(ids(await walk(`/resources?tag=${odd}`))).toEqual(['01900000-0000-7000-8000-0000000000bb'])
      expect(await walk('/resources?tag=cost%25center')).toEqual([])
      expect(await walk('/resources?tag=cost_enter')).toEqual([])
    })

    it('filters resource groups by tag the same way', async () => {
      const groups = await walk('/resource-groups', 200)
      const workload = tagValues(groups[0]!, 'workload')[0]!
      const expected = groups.filter((g) => tagValues(g, 'workload').includes(workload))
      expect(expected.length).toBeLessThan(groups.length)
      expect(ids(await walk(`/resource-groups?tag=Workload:${encodeURIComponent(workload)}`))).toEqual(ids(expected))
      const sub = String(expected[0]!.subscriptionId)
      expect(ids(await walk(`/resource-groups?tag=workload:${workload}&subscriptionId=${sub}`))).toEqual(
        ids(expected.filter((g) => g.subscriptionId === sub)),
      )
      expect(await walk('/resource-groups?tag=no-such-tag')).toEqual([])
    })

    it('searches a part of the name ignoring case, wildcards taken literally; the exact name stays exact', async () => {
      const vm = all.find((r) => r.resourceType === 'Microsoft.Compute/virtualMachines')!
      const part = vm.name.slice(3, 9)
      const expected = all.filter((r) => r.name.toLowerCase().includes(part.toLowerCase()))
      expect(expected.length).toBeGreaterThan(1)
      expect(ids(await walk(`/resources?search=${encodeURIComponent(part.toUpperCase())}`))).toEqual(ids(expected))
      expect(ids(await walk('/resources?search=_50%25'))).toEqual(['01900000-0000-7000-8000-0000000000bb'])
      expect(ids(await walk('/resources?search=%25o'))).toEqual(['01900000-0000-7000-8000-0000000000bb'])
      expect(await walk('/resources?search=ach%2550')).toEqual([]) // as a LIKE pattern it would match
      expect(ids(await walk(`/resources?search=${part}&resourceType=${vm.resourceType}`))).toEqual(
        ids(expected.filter((r) => r.resourceType === vm.resourceType)),
      )
      expect(await walk(`/resources?armResourceName=${part}`)).toEqual([])
    })

    it('sorts by name either way, by type, or newest first, pages never repeating a row', async () => {
      const reversed = await walk('/resources?sort=-name', 17)
      expect(ids(reversed)).toEqual(
        ids([...all].sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? 1 : -1))),
      )
      const byType = await walk('/resources?sort=resourceType', 17)
      expect(new Set(ids(byType)).size).toBe(all.length)
      const types = byType.map((r) => String(r.resourceType).toLowerCase())
      expect(types).toEqual([...types].sort())
      const newest = await walk('/resources?sort=-firstSeenAt', 30)
      expect(newest[0]!.name).toBe('Cache_50%Off')
      expect(newest).toHaveLength(all.length)
    })

    it('sorts by the cost of the last 30 days, highest first, as the records show it, filtered too', async () => {
      type Costed = Row & { costs: { last30Days: number; currency: string } }
      const byCost = (await walk('/resources?sort=-last30Days', 17)) as Costed[]
      expect([...ids(byCost)].sort()).toEqual([...ids(all)].sort())
      const costs = byCost.map((r) => r.costs.last30Days)
      expect(costs[0]).toBeGreaterThan(0)
      expect(costs.at(-1)).toBe(0) // the resource added by hand has no cost
      // Each record's cost is rounded to the cent on its own: the order may differ from it by that much at most.
      for (const [i, cost] of costs.entries()) if (i > 0) expect(cost).toBeLessThanOrEqual(costs[i - 1]! + 0.01)
      // Equal costs (the resources without any) by name.
      const free = byCost.filter((r) => r.costs.last30Days === 0).map((r) => r.name)
      expect(free).toEqual([...free].sort())
      // With a filter: the same order, of the matching resources only.
      const tagged = all.find((r) => tagValues(r, 'environment').length > 0)!
      const value = tagValues(tagged, 'environment')[0]!
      const filtered = await walk(`/resources?sort=-last30Days&tag=environment:${encodeURIComponent(value)}`, 7)
      expect(ids(filtered)).toEqual(ids(byCost.filter((r) => tagValues(r, 'environment').includes(value))))
    })

    it('lists the resource types with their counts, types differing in case as one', async () => {
      const res = await get('/resource-types')
      expect(res.statusCode, res.body).toBe(200)
      const { items } = res.json() as { items: { resourceType: string; resourceCount: number }[] }
      const counts = new Map<string, number>()
      for (const r of all) {
        const key = String(r.resourceType).toLowerCase()
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      expect(items.map((i) => [i.resourceType.toLowerCase(), i.resourceCount])).toEqual(
        [...counts].sort(([a], [b]) => (a < b ? -1 : 1)),
      )
      // The simulated estate has Microsoft.Cache/Redis too: the two spellings are one type, in the smaller one.
      const redis = items.find((i) => i.resourceType.toLowerCase() === 'microsoft.cache/redis')!
      expect(redis.resourceType).toBe(
        all
          .map((r) => String(r.resourceType))
          .filter((type) => type.toLowerCase() === 'microsoft.cache/redis')
          .sort()[0],
      )
      expect(
        (await t.request('GET', `${API}/tenants/00000000-0000-4000-8000-000000000000/resource-types`, org.ownerKey))
          .statusCode,
      ).toBe(404)
    })

    it('answers a precise 400 for each bad tag, search or sort', async () => {
      const problem = async (path: string, field: string, message: RegExp) => {
        const res = await get(path)
        expect(res.statusCode, path).toBe(400)
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/)
        const body = res.json()
        expect(body.errors[field], `${path}: ${res.body}`).toEqual([expect.stringMatching(message)])
      }
      await problem('/resources?tag=:value', 'tag', /key before ":" must not be empty/)
      await problem('/resources?tag=owner&tag=%20:x', 'tag', /key before ":" must not be empty/)
      await problem(`/resources?tag=${'k'.repeat(513)}`, 'tag', /at most 512 characters/)
      await problem(`/resources?tag=owner:${'v'.repeat(257)}`, 'tag', /more than 256 characters/)
      await problem(`/resources?${Array.from({ length: 11 }, (_, i) => `tag=k${i}`).join('&')}`, 'tag', /10 items/)
      await problem('/resources?tag=', 'tag.0', /fewer than 1 characters/)
      await problem('/resources?search=', 'search', /fewer than 1 characters/)
      await problem('/resources?search=%20%20', 'search', /must not be blank/)
      await problem(`/resources?search=${'a'.repeat(201)}`, 'search', /more than 200 characters/)
      await problem(
        '/resources?sort=cost',
        'sort',
        /must be one of: name, -name, resourceType, -firstSeenAt, -last30Days/,
      )
      await problem('/resource-groups?tag=:x', 'tag', /key before ":" must not be empty/)
    })
  })
}
