import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { rebuildSeries } from '../../src/features/costs/rebuild.js'
import { currentResourceTags } from '../../src/features/inventory/store.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { ROOT } from '../support/cli.js'
import { insertCostRows } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const EUR_FILE = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv') // EUR, 2025-10-15 to 2025-10-17
const ZERO = { monthToDate: 0, previousMonth: 0, last30Days: 0 }

for (const dialect of testDialects()) {
  // Months after the imported days: every summary window and the default chart are empty.
  describe(`${dialect}: amounts keep the tenant's own currency`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let tenant: TenantRecord
    const get = async (path: string) => {
      const res = await t.request('GET', `${API}/tenants/${tenant.id}${path}`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      return res.json()
    }

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      await t.services.importFocus(tenant.id, [EUR_FILE])
    })

    it('EUR stays EUR with empty windows: tenant, subscription, group and resource records, and the daily series', async () => {
      expect((await get('')).costs).toEqual({ currency: 'EUR', ...ZERO })
      const list = (await t.request('GET', `${API}/tenants`, org.ownerKey)).json()
      expect(list.items.find((r: TenantRecord) => r.id === tenant.id).costs).toEqual({ currency: 'EUR', ...ZERO })
      for (const path of ['/subscriptions', '/resource-groups', '/resources']) {
        const page = await get(path)
        expect(page.items.length, path).toBeGreaterThan(0)
        for (const record of page.items) expect(record.costs, path).toEqual({ currency: 'EUR', ...ZERO })
      }
      const [subscription] = (await get('/subscriptions')).items
      expect((await get(`/subscriptions/${subscription.subscriptionId}`)).costs.currency).toBe('EUR')
      const chart = await get('/costs/daily')
      expect(chart.currency).toBe('EUR')
      expect(chart.points.every((p: { cost: number }) => p.cost === 0)).toBe(true)
      const grouped = await get('/costs/daily?groupBy=service')
      expect(grouped).toMatchObject({ currency: 'EUR', groups: [] })
      // Over the imported days the amounts are there, in EUR.
      const imported = await get('/costs/daily?from=2025-10-15&to=2025-10-17')
      expect(imported.currency).toBe('EUR')
      expect(imported.points.map((p: { cost: number }) => p.cost)).toEqual([8.24, 33.83, 3.16])
    })

    it('a tenant that never had a cost row is in its subscriptions’ currency, or USD without any', async () => {
      const bare = await t.given.tenant(org)
      const res = await t.request('GET', `${API}/tenants/${bare.id}`, org.ownerKey)
      expect(res.json().costs).toEqual({ currency: 'USD', ...ZERO })
      await t.db.kysely
        .insertInto('subscriptions')
        .values({
          tenantId: bare.id,
          subscriptionId: '99999999-aaaa-4aaa-8aaa-999999999999',
          displayName: 'Sterling',
          state: 'Enabled',
          currency: 'GBP',
          firstSeenAt: '2026-02-01T00:00:00.000Z',
          lastSeenAt: '2026-02-01T00:00:00.000Z',
        })
        .execute()
      const chart = (await t.request('GET', `${API}/tenants/${bare.id}/costs/daily`, org.ownerKey)).json()
      expect(chart.currency).toBe('GBP')
      const [sub] = (await t.request('GET', `${API}/tenants/${bare.id}/subscriptions`, org.ownerKey)).json().items
      expect(sub.costs).toEqual({ currency: 'GBP', ...ZERO })
    })

    it('rows of two currencies are never added up: the latest currency is shown, alone', async () => {
      const mixed = await t.given.tenant(org)
      const row = { tenantId: mixed.id, meterId: 'm', subscriptionId: 's', resourceGroupKey: 'rg', serviceName: 'VMs' }
      await insertCostRows(t.db.kysely, [
        { ...row, resourceKey: '/r/a', date: '2026-02-27', cost: 100, currency: 'EUR', meterName: null },
        { ...row, resourceKey: '/r/b', date: '2026-02-27', cost: 1, currency: 'USD', meterName: null },
        { ...row, resourceKey: '/r/b', date: '2026-03-01', cost: 2, currency: 'USD', meterName: null },
      ])
      // Rows written past the cost store: their series are summed as mergeStaged would.
      await rebuildSeries(t.db.kysely, currentResourceTags, mixed.id, '2026-02-27', '2026-03-01')
      const res = await t.request('GET', `${API}/tenants/${mixed.id}`, org.ownerKey)
      expect(res.json().costs).toEqual({ currency: 'USD', monthToDate: 2, previousMonth: 1, last30Days: 3 })
      const chart = (
        await t.request('GET', `${API}/tenants/${mixed.id}/costs/daily?from=2026-02-27&to=2026-03-01`, org.ownerKey)
      ).json()
      expect(chart.currency).toBe('USD')
      expect(chart.points.map((p: { cost: number }) => p.cost)).toEqual([1, 0, 2])
    })
  })
}
