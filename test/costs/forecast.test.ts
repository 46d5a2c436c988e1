import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DailyCostRow } from '../../src/connectors/types.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays, daysBetween } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { collectRows, costRow } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const SUB = '44444444-dddd-4ddd-8ddd-444444444444'
const VM = `/subscriptions/${SUB}/resourcegroups/app/providers/microsoft.compute/virtualmachines/vm-1`
const STORAGE = `/subscriptions/${SUB}/resourcegroups/data/providers/microsoft.storage/storageaccounts/st1`
const NOW = '2026-11-20T09:00:00.000Z'
const FIRST = '2026-09-11'
const LAST = '2026-11-19'

const isWeekend = (date: string) => [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())
/** The VM's planted usage: rising 0.5 a day from 100, halved at weekends. */
const vmCost = (date: string) => {
  const i = daysBetween(FIRST, date).length - 1
  return (100 + 0.5 * i) * (isWeekend(date) ? 0.5 : 1)
}

interface Forecast {
  historyTo: string
  from: string
  to: string
  currency: string
  method: string
  accuracy: { mase: number | null; coverage80: number | null; backtestDays: number }
  series: {
    key: string
    name: string
    points: { date: string; expected: number; lower: number; upper: number }[]
    monthEnd: { date: string; expected: number; lower: number; upper: number }
    periodTotal: { from: string; to: string; expected: number }
  }[]
}

for (const dialect of testDialects()) {
  describe(`${dialect}: cost forecast`, () => {
    const t = useTestApp({ dialect, now: NOW })
    let org: OrgContext
    let tenant: TenantRecord
    const collect = (tenantId: string, rows: DailyCostRow[]) => collectRows(t, tenantId, rows)
    const forecast = (tenantId: string, query: string) =>
      t.request('GET', `${API}/tenants/${tenantId}/costs/forecast${query}`, org.ownerKey)

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      const rows: DailyCostRow[] = []
      for (const date of daysBetween(FIRST, LAST)) {
        rows.push(costRow({ subscriptionId: SUB, resourceArmId: VM, date, cost: vmCost(date), currency: 'USD' }))
        rows.push(
          costRow({
            subscriptionId: SUB,
            resourceArmId: STORAGE,
            resourceGroupName: 'data',
            serviceName: 'Storage',
            meterId: 'meter-st',
            date,
            cost: 20,
            currency: 'USD',
          }),
        )
      }
      // A support plan bought on the 5th of each month, and a one-off purchase.
      for (const [date, cost] of [
        ['2026-10-05', 100],
        ['2026-11-05', 100],
        ['2026-10-17', 999],
      ] as const) {
        rows.push(
          costRow({
            subscriptionId: SUB,
            resourceArmId: null,
            resourceGroupName: null,
            chargeCategory: 'Purchase',
            serviceName: 'Support',
            meterId: 'support',
            date,
            cost,
            currency: 'USD',
          }),
        )
      }
      await collect(tenant.id, rows)
    })

    it("forecasts a known trend and weekly pattern, with recurring purchases and the month's actual cost", async () => {
      const res = await forecast(tenant.id, '?to=2026-12-31')
      expect(res.statusCode, res.body).toBe(200)
      const body: Forecast = res.json()
      expect(body).toMatchObject({
        scope: 'tenant',
        groupBy: null,
        currency: 'USD',
        method: 'TheilSenWeekly',
        historyFrom: FIRST,
        historyTo: LAST,
        from: '2026-11-20',
        to: '2026-12-31',
      })
      expect(body.series).toHaveLength(1)
      const [total] = body.series
      expect(total!.points.map((p) => p.date)).toEqual(daysBetween('2026-11-20', '2026-12-31'))
      for (const date of ['2026-12-01', '2026-12-12', '2026-12-28']) {
        const point = total!.points.find((p) => p.date === date)!
        const truth = vmCost(date) + 20
        expect(Math.abs(point.expected - truth) / truth, date).toBeLessThan(0.03)
        expect(point.lower).toBeLessThanOrEqual(point.expected)
        expect(point.upper).toBeGreaterThanOrEqual(point.expected)
      }
      // The support plan recurs on the 5th; the one-off purchase does not recur.
      const dec4 = total!.points.find((p) => p.date === '2026-12-04')!
      const dec5 = total!.points.find((p) => p.date === '2026-12-05')!
      expect(dec5.expected - (vmCost('2026-12-05') + 20)).toBeCloseTo(100, -1)
      expect(
        Math.abs(total!.points.find((p) => p.date === '2026-12-17')!.expected - (vmCost('2026-12-17') + 20)),
      ).toBeLessThan(10)
      expect(dec4.expected).toBeLessThan(dec5.expected)

      // The month's end: November's settled days as billed, and the forecast of the days after them.
      const chart = await t.request(
        'GET',
        `${API}/tenants/${tenant.id}/costs/daily?from=2026-11-01&to=${LAST}`,
        org.ownerKey,
      )
      const actual = (chart.json().points as { cost: number }[]).reduce((a, p) => a + p.cost, 0)
      const rest = total!.points.filter((p) => p.date <= '2026-11-30').reduce((a, p) => a + p.expected, 0)
      expect(total!.monthEnd.date).toBe('2026-11-30')
      expect(total!.monthEnd.expected).toBeCloseTo(actual + rest, 0)
      expect(total!.monthEnd.lower).toBeLessThan(total!.monthEnd.expected)
      expect(total!.monthEnd.upper).toBeGreaterThan(total!.monthEnd.expected)
      expect(total!.monthEnd.lower).toBeGreaterThan(actual)
      const all = total!.points.reduce((a, p) => a + p.expected, 0)
      expect(total!.periodTotal).toMatchObject({ from: '2026-11-20', to: '2026-12-31' })
      expect(total!.periodTotal.expected).toBeCloseTo(all, 0)

      // A rising series: better than repeating last week.
      expect(body.accuracy.backtestDays).toBe(28)
      expect(body.accuracy.mase).toBeLessThan(1)
      expect(body.accuracy.coverage80).toBeGreaterThanOrEqual(0)
      expect(body.accuracy.coverage80).toBeLessThanOrEqual(1)
    })

    it("forecasts each group of the chart's grouping, named as on the chart", async () => {
      const byService: Forecast = (await forecast(tenant.id, '?groupBy=service')).json()
      expect(byService.to).toBe('2026-11-30')
      expect(byService.series.map((s) => s.key)).toEqual(['Virtual Machines', 'Storage', 'Support'])
      const storage = byService.series.find((s) => s.key === 'Storage')!
      for (const p of storage.points) expect(p.expected).toBeCloseTo(20, 1)
      const byGroup: Forecast = (await forecast(tenant.id, '?groupBy=resourceGroup')).json()
      expect(byGroup.series.map((s) => s.name)).toEqual(['app', 'data', '(no resource group)'])
      const byResource: Forecast = (await forecast(tenant.id, '?groupBy=resource')).json()
      expect(byResource.series.map((s) => s.name)).toEqual(['vm-1', 'st1', '(subscription charges)'])
    })

    it('refuses a scope with under 28 days of history, and bad ranges and scopes, precisely', async () => {
      const young = await t.given.tenant(org)
      await collect(
        young.id,
        daysBetween(addDays(LAST, -19), LAST).map((date) =>
          costRow({ subscriptionId: SUB, resourceArmId: VM, date, cost: 10, currency: 'USD' }),
        ),
      )
      const refused = await forecast(young.id, '')
      expect(refused.statusCode).toBe(422)
      expect(refused.headers['content-type']).toContain('application/problem+json')
      expect(refused.json()).toMatchObject({
        type: '/problems/not-enough-history',
        status: 422,
        historyDays: 20,
        requiredDays: 28,
      })
      expect(refused.json().detail).toContain('at least 28 settled days')

      const far = await forecast(tenant.id, '?to=2027-11-21')
      expect(far.statusCode).toBe(400)
      expect(far.json().errors).toEqual({ to: ['must be at most 12 months ahead (2027-11-20)'] })
      expect((await forecast(tenant.id, '?to=2027-11-20')).statusCode).toBe(200)
      const past = await forecast(tenant.id, '?to=2026-11-19')
      expect(past.statusCode).toBe(400)
      expect(past.json().errors.to[0]).toContain('2026-11-20')
      expect((await forecast(tenant.id, '?scope=galaxy')).statusCode).toBe(400)
      expect((await forecast(tenant.id, '?to=2026-13-01')).statusCode).toBe(400)
      expect((await forecast(randomUUID(), '')).statusCode).toBe(404)
    })
  })
}
