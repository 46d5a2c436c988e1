import { beforeAll, describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { createInventoryStore } from '../../src/features/inventory/store.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { daysBetween } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { simulatedConnection } from '../support/connection.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

interface Listed {
  items: Record<string, unknown>[]
  totalCount: number
}

for (const dialect of testDialects()) {
  describe(`${dialect}: inventory operations`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let tenant: TenantRecord

    const get = async (path: string, key = org.ownerKey) => t.request('GET', `${API}/tenants/${tenant.id}${path}`, key)
    /** Every item of a list, walking its pages. */
    async function walk(path: string, pageSize = 7): Promise<Record<string, unknown>[]> {
      const items: Record<string, unknown>[] = []
      for (let page = 1; ; page++) {
        const res = await get(`${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=${pageSize}`)
        expect(res.statusCode, res.body).toBe(200)
        const body = res.json() as Listed
        if (body.items.length === 0) return items
        items.push(...body.items)
      }
    }

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      await t.services.snapshots.trigger(org.owner, tenant.id, true)
      while (await t.worker().runOnce()) {}
    })

    it('lists subscriptions with counts and costs, and gets one by id in any case', async () => {
      const subs = await walk('/subscriptions', 3)
      expect(subs).toHaveLength(4)
      expect(subs.map((s) => s.displayName)).toEqual(['Data Platform', 'Production', 'Shared Services', 'Staging'])
      const groups = await walk('/resource-groups', 50)
      const resources = await walk('/resources', 200)
      expect(subs.reduce((n, s) => n + Number(s.resourceGroupCount), 0)).toBe(groups.length)
      expect(subs.reduce((n, s) => n + Number(s.resourceCount), 0)).toBe(resources.length)
      const total = subs.reduce((n, s) => n + (s.costs as { last30Days: number }).last30Days, 0)
      const tenantCosts = (await get('')).json().costs
      expect(total).toBeCloseTo(tenantCosts.last30Days, 0)
      const one = await get(`/subscriptions/${String(subs[0]!.subscriptionId).toUpperCase()}`)
      expect(one.statusCode).toBe(200)
      expect(one.json()).toEqual(subs[0])
      expect((await get('/subscriptions/not-a-subscription')).statusCode).toBe(404)
    })

    it('walks resources with no repeats or gaps, filtered by each filter of the contract', async () => {
      const all = await walk('/resources', 17)
      expect(all).toHaveLength(240)
      expect(new Set(all.map((r) => r.id)).size).toBe(240)
      const sorted = [...all].sort((a, b) =>
        a.name === b.name ? (String(a.id) < String(b.id) ? -1 : 1) : String(a.name) < String(b.name) ? -1 : 1,
      )
      expect(all.map((r) => r.id)).toEqual(sorted.map((r) => r.id))

      const vm = all.find((r) => r.resourceType === 'Microsoft.Compute/virtualMachines')!
      const bySub = await walk(`/resources?subscriptionId=${vm.subscriptionId}`, 50)
      expect(bySub.length).toBe(all.filter((r) => r.subscriptionId === vm.subscriptionId).length)
      const inGroup = all.filter((r) => r.resourceGroupId === vm.resourceGroupId).map((r) => r.id)
      expect((await walk(`/resources?resourceGroupId=${vm.resourceGroupId}`)).map((r) => r.id)).toEqual(inGroup)
      const group = (await get(`/resource-groups/${vm.resourceGroupName}?subscriptionId=${vm.subscriptionId}`)).json()
      expect(
        (await walk(`/resources?resourceGroupId=${encodeURIComponent(String(group.armId).toUpperCase())}`)).map(
          (r) => r.id,
        ),
      ).toEqual(inGroup)
      expect((await walk(`/resources?armResourceName=${String(vm.name).toUpperCase()}`)).map((r) => r.id)).toEqual([
        vm.id,
      ])
      const vms = await walk('/resources?resourceType=microsoft.compute/VIRTUALMACHINES', 50)
      expect(vms.length).toBe(all.filter((r) => r.resourceType === 'Microsoft.Compute/virtualMachines').length)
      expect(vms.length).toBeGreaterThan(10)
      const none = await get('/resources?armResourceName=nothing-like-this')
      expect(none.json()).toMatchObject({ items: [], totalCount: 0 })
    })

    it('a resource carries its tags, sku, state, first/last seen and costs', async () => {
      const [first] = (await get('/resources?pageSize=1')).json().items
      const res = await get(`/resources/${String(first.id).toUpperCase()}`)
      expect(res.statusCode).toBe(200)
      const resource = res.json()
      expect(resource).toEqual(first)
      expect(resource).toMatchObject({
        armId: expect.stringMatching(/^\/subscriptions\/[0-9a-f-]+\/resourceGroups\/.+\/providers\//),
        firstSeenAt: '2026-03-01T09:00:00.000Z',
        lastSeenAt: '2026-03-01T09:00:00.000Z',
        tags: expect.objectContaining({ environment: expect.any(String) }),
        costs: {
          currency: 'USD',
          monthToDate: expect.any(Number),
          previousMonth: expect.any(Number),
          last30Days: expect.any(Number),
        },
      })
      expect((await get('/resources/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404)
    })

    it('resource groups: lookup by name in any case, 409 naming the subscriptions when ambiguous', async () => {
      const groups = await walk('/resource-groups', 5)
      const byName = new Map<string, Record<string, unknown>[]>()
      for (const g of groups) byName.set(String(g.name), [...(byName.get(String(g.name)) ?? []), g])
      const unique = [...byName.values()].find((list) => list.length === 1)![0]!
      const res = await get(`/resource-groups/${String(unique.name).toUpperCase()}`)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual(unique)

      // The same name in a second subscription makes the name ambiguous.
      const otherSub = (await walk('/subscriptions')).find((s) => s.subscriptionId !== unique.subscriptionId)!
      await t.db.kysely
        .insertInto('resourceGroups')
        .values({
          id: '01900000-0000-7000-8000-0000000000aa',
          tenantId: tenant.id,
          subscriptionId: String(otherSub.subscriptionId),
          name: String(unique.name).toUpperCase(),
          nameLower: String(unique.name).toLowerCase(),
          armId: `/subscriptions/${otherSub.subscriptionId}/resourceGroups/${String(unique.name).toUpperCase()}`,
          location: 'westeurope',
          tags: '{}',
          firstSeenAt: '2026-03-01T09:00:00.000Z',
          lastSeenAt: '2026-03-01T09:00:00.000Z',
        })
        .execute()
      const ambiguous = await get(`/resource-groups/${unique.name}`)
      expect(ambiguous.statusCode).toBe(409)
      expect(ambiguous.json().subscriptionIds.sort()).toEqual([unique.subscriptionId, otherSub.subscriptionId].sort())
      const chosen = await get(`/resource-groups/${unique.name}?subscriptionId=${otherSub.subscriptionId}`)
      expect(chosen.json()).toMatchObject({ id: '01900000-0000-7000-8000-0000000000aa', resourceCount: 0 })
      const filtered = await walk(`/resource-groups?subscriptionId=${otherSub.subscriptionId}`)
      expect(filtered.every((g) => g.subscriptionId === otherSub.subscriptionId)).toBe(true)
      expect((await get('/resource-groups/no-such-group')).statusCode).toBe(404)
    })

    it('keeps the daily CPU of running virtual machines, read per resource over a range', async () => {
      const store = createInventoryStore(t.db.kysely, t.db.dialect)
      const vms = await walk('/resources?resourceType=microsoft.compute/virtualmachines', 100)
      const vm = vms.find((v) => v.state === 'VM running')!
      const stopped = vms.find((v) => v.state !== 'VM running')!
      const armId = String(vm.armId)
      const conn = simulatedConnection(tenant)
      const window = { from: '2026-02-27', to: '2026-03-01' } // across a month end
      const expected = await createSimulatedConnector().cpuMetrics(conn, [armId], window, { clock: t.clock })
      expect(expected).toHaveLength(3)
      expect(await store.dailyCpu(tenant.id, armId.toUpperCase(), window.from, window.to)).toEqual(
        expected.map(({ date, averagePercent, maxPercent, p95Percent }) => ({
          date,
          averagePercent,
          maxPercent,
          p95Percent,
        })),
      )
      // The deep snapshot collected every day of its window, and only those.
      const all = await store.dailyCpu(tenant.id, armId, '2025-01-01', '2026-12-31')
      expect(all.map((s) => s.date)).toEqual(daysBetween('2026-01-30', '2026-03-01'))
      expect(await store.dailyCpu(tenant.id, String(stopped.armId), '2025-01-01', '2026-12-31')).toEqual([])
      const other = await t.given.tenant(org)
      expect(await store.dailyCpu(other.id, armId, '2025-01-01', '2026-12-31')).toEqual([])
    })

    it('a later snapshot that no longer sees a resource leaves its lastSeenAt behind', async () => {
      const [first] = (await get('/resources?pageSize=1')).json().items
      await t.db.kysely
        .updateTable('resources')
        .set({ lastSeenAt: '2026-02-01T00:00:00.000Z' })
        .where('id', '=', first.id)
        .execute()
      // Pretend the estate lost it: the next run sees every other resource again.
      t.clock.set('2026-03-02T09:00:00.000Z')
      await t.db.kysely.updateTable('resources').set({ armIdLower: 'gone' }).where('id', '=', first.id).execute()
      await t.services.snapshots.trigger(org.owner, tenant.id, false)
      while (await t.worker().runOnce()) {}
      const gone = (await get(`/resources/${first.id}`)).json()
      expect(gone.lastSeenAt).toBe('2026-02-01T00:00:00.000Z')
      const others = (await get('/resources?pageSize=5&page=3')).json().items
      for (const r of others) expect(r.lastSeenAt).toBe('2026-03-02T09:00:00.000Z')
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('Viewer reads; a key of another tenancy gets 404', async () => {
      const other = await t.given.tenant(org)
      const viewer = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Viewer' }])
      const outsider = await t.given.key(org, [{ tenancyId: other.id, role: 'Admin' }])
      expect((await get('/resources', viewer.apiKey)).statusCode).toBe(200)
      expect((await get('/subscriptions', outsider.apiKey)).statusCode).toBe(404)
      expect((await get('/resources?pageSize=0')).statusCode).toBe(400)
    })
  })
}
