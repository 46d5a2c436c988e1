import { beforeAll, describe, expect, it } from 'vitest'
import type { DailyCostRow } from '../../src/connectors/types.js'
import type { BudgetRecord } from '../../src/features/budgets/schemas.js'
import type { Overview } from '../../src/features/overview/schemas.js'
import { daysBetween } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { auditLogOf } from '../support/audit-log.js'
import { collectRows, costRow } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'
import { asBrowser, setPassword, signIn } from '../support/members.js'

const API = '/api/public/v1'
const NOW = '2026-11-20T09:00:00.000Z'
const TODAY = '2026-11-20'
/** The sources settled the costs through this day; the days after are preliminary and not counted as spend. */
const SETTLED = '2026-11-17'
const SUB = '33333333-cccc-4ccc-8ccc-333333333333'
const arm = (group: string, name: string) =>
  `/subscriptions/${SUB}/resourcegroups/${group}/providers/microsoft.compute/virtualmachines/${name}`

/**
 * Since August, every day: the payments VM at 100 (tagged team=payments), the search VM at 20. A month of November
 * is then 17 settled days of 120 (2,040) and 13 forecast days of 120 (1,560): 3,600 in all.
 */
function rows(): DailyCostRow[] {
  return daysBetween('2026-08-01', TODAY).flatMap((date) => [
    costRow({ subscriptionId: SUB, resourceArmId: arm('pay', 'vm-pay'), date, cost: 100, currency: 'USD' }),
    costRow({
      subscriptionId: SUB,
      resourceArmId: arm('search', 'vm-search'),
      resourceGroupName: 'search',
      meterId: 'meter-search',
      date,
      cost: 20,
      currency: 'USD',
    }),
  ])
}

const THRESHOLDS = [
  { kind: 'Percent', value: 50, basis: 'Actual' },
  { kind: 'Percent', value: 100, basis: 'Forecast' },
  { kind: 'Amount', value: 5000, basis: 'Forecast' },
]

for (const dialect of testDialects()) {
  describe(`${dialect}: budgets through the API`, () => {
    const t = useTestApp({ dialect, now: NOW })
    let org: OrgContext
    let tenantId: string
    let otherTenantId: string
    let adminKey: string
    let viewerKey: string
    let otherViewerKey: string

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      otherTenantId = (await t.given.tenant(org)).id
      adminKey = (await t.given.key(org, [{ tenancyId: tenantId, role: 'Admin' }])).apiKey
      viewerKey = (await t.given.key(org, [{ tenancyId: tenantId, role: 'Viewer' }])).apiKey
      otherViewerKey = (await t.given.key(org, [{ tenancyId: otherTenantId, role: 'Viewer' }])).apiKey
      await collectRows(t, tenantId, rows(), { settledThrough: SETTLED, to: TODAY })
    })

    const create = async (key: string, body: Record<string, unknown>) =>
      t.request('POST', `${API}/budgets`, key, {
        name: 'Payments',
        scope: { tenancyIds: [tenantId] },
        period: 'Monthly',
        amount: 3000,
        currency: 'USD',
        startDate: '2026-01-01',
        thresholds: THRESHOLDS,
        ...body,
      })

    it('creates a budget and answers its status: settled spend, the forecast, the breach date, thresholds', async () => {
      const res = await create(adminKey, {})
      expect(res.statusCode, res.body).toBe(201)
      const budget = res.json() as BudgetRecord
      expect(res.headers.location).toBe(`${API}/budgets/${budget.id}`)
      expect(budget).toMatchObject({ name: 'Payments', period: 'Monthly', amount: 3000, costBasis: 'Effective' })
      const status = budget.status!
      expect(status).toMatchObject({ periodFrom: '2026-11-01', periodTo: '2026-11-30', amount: 3000, actual: 2040 })
      expect(status.percent).toBe(68)
      expect(status.forecast.expected).toBeCloseTo(3600, 0)
      expect(status.forecast.lower).toBeLessThanOrEqual(status.forecast.expected)
      expect(status.forecast.upper).toBeGreaterThanOrEqual(status.forecast.expected)
      // 2,040 through the 17th, then 120 a day: 3,000 on the 25th.
      expect(status.breachDate).toBe('2026-11-25')
      expect(status.thresholds.map((x) => [x.state, x.since])).toEqual([
        ['Alarm', SETTLED],
        ['Alarm', SETTLED],
        ['Ok', null],
      ])

      const got = await t.request('GET', `${API}/budgets/${budget.id}`, viewerKey)
      expect(got.statusCode, got.body).toBe(200)
      expect(got.json()).toEqual(budget)
      expect((await t.request('GET', `${API}/budgets/${budget.id}`, otherViewerKey)).statusCode).toBe(404)
    })

    it('counts only what the scope names: a tag with the markers’ semantics, a resource group', async () => {
      const tagged = await create(adminKey, {
        name: 'Tagged',
        scope: { tenancyIds: [tenantId], tags: [{ key: 'TEAM', value: 'payments' }] },
      })
      expect(tagged.statusCode, tagged.body).toBe(201)
      // costRow tags nothing: no resource carries team=payments, so the tagged budget has spent nothing.
      expect((tagged.json() as BudgetRecord).status!.actual).toBe(0)
      const group = await create(adminKey, {
        name: 'Search',
        scope: { tenancyIds: [tenantId], resourceGroup: 'SEARCH' },
        amount: 500,
      })
      expect(group.statusCode, group.body).toBe(201)
      const status = (group.json() as BudgetRecord).status!
      expect(status.actual).toBe(17 * 20)
      expect(status.breachDate).toBe('2026-11-25')
    })

    it('refuses what does not hold with the field named, and nothing is saved', async () => {
      const before = (await t.request('GET', `${API}/budgets?pageSize=100`, org.ownerKey)).json().totalCount
      const cases: [Record<string, unknown>, string][] = [
        [{ period: 'Custom' }, 'amount'],
        [
          { period: 'Custom', amount: undefined, periods: [{ from: '2026-12-01', to: '2026-11-01', amount: 5 }] },
          'periods.0.to',
        ],
        [{ periods: [{ from: '2026-12-01', to: '2026-12-31', amount: 5 }] }, 'periods'],
        [{ scope: { tenancyIds: ['00000000-0000-4000-8000-000000000000'] } }, 'scope.tenancyIds'],
      ]
      for (const [body, field] of cases) {
        const res = await create(org.ownerKey, body)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
        expect(Object.keys(res.json().errors ?? {})).toContain(field)
      }
      const schema = await create(org.ownerKey, { thresholds: [{ kind: 'Percent', value: -1, basis: 'Actual' }] })
      expect(schema.statusCode, schema.body).toBe(400)
      expect((await create(viewerKey, {})).statusCode).toBe(403)
      expect((await create(adminKey, { scope: { tenancyIds: null } })).statusCode).toBe(403)
      expect((await create(adminKey, { scope: { tenancyIds: [tenantId, otherTenantId] } })).statusCode).toBe(403)
      const after = (await t.request('GET', `${API}/budgets?pageSize=100`, org.ownerKey)).json().totalCount
      expect(after).toBe(before)
    })

    it('lists by name to those who see the tenancies, changes and deletes', async () => {
      const wide = await create(org.ownerKey, { name: 'Everything', scope: { tenancyIds: null }, amount: 10000 })
      expect(wide.statusCode, wide.body).toBe(201)
      const names = async (key: string) =>
        ((await t.request('GET', `${API}/budgets?pageSize=100`, key)).json().items as BudgetRecord[]).map((b) => b.name)
      expect(await names(org.ownerKey)).toEqual(['Everything', 'Payments', 'Search', 'Tagged'])
      expect(await names(viewerKey)).toEqual(['Payments', 'Search', 'Tagged'])
      expect(await names(otherViewerKey)).toEqual([])
      const page = await t.request('GET', `${API}/budgets?pageSize=2&page=2`, org.ownerKey)
      expect(page.json()).toMatchObject({ page: 2, pageSize: 2, totalCount: 4 })

      const search = (
        (await t.request('GET', `${API}/budgets?pageSize=100`, viewerKey)).json().items as BudgetRecord[]
      ).find((b) => b.name === 'Search')!
      expect((await t.request('PATCH', `${API}/budgets/${search.id}`, viewerKey, { amount: 1000 })).statusCode).toBe(
        403,
      )
      const patched = await t.request('PATCH', `${API}/budgets/${search.id}`, adminKey, { amount: 1000 })
      expect(patched.statusCode, patched.body).toBe(200)
      expect(patched.json()).toMatchObject({ amount: 1000, status: { amount: 1000, percent: 34, breachDate: null } })
      const auditOf = auditLogOf(t, org)
      expect(await auditOf('budget.updated')).toMatchObject([
        { target: { type: 'Budget', id: search.id }, detail: { name: 'Search', changed: 'amount' } },
      ])

      // To Custom periods and back: the amount, then the periods, go with the kind that takes them.
      const custom = await t.request('PATCH', `${API}/budgets/${search.id}`, adminKey, {
        period: 'Custom',
        periods: [{ from: '2026-11-01', to: '2026-12-31', amount: 2500 }],
      })
      expect(custom.statusCode, custom.body).toBe(200)
      expect(custom.json()).toMatchObject({ amount: null, status: { periodFrom: '2026-11-01', amount: 2500 } })
      const monthly = await t.request('PATCH', `${API}/budgets/${search.id}`, adminKey, {
        period: 'Monthly',
        amount: 900,
      })
      expect(monthly.json()).toMatchObject({ periods: null, amount: 900, status: { periodTo: '2026-11-30' } })

      expect((await t.request('DELETE', `${API}/budgets/${search.id}`, adminKey)).statusCode).toBe(204)
      expect((await t.request('GET', `${API}/budgets/${search.id}`, adminKey)).statusCode).toBe(404)
      expect(await auditOf('budget.deleted')).toMatchObject([{ target: { id: search.id } }])
    })

    it('puts budgets forecast past their amount on the overview, by breach date', async () => {
      await setPassword(t, org.ownerId)
      const browser = await signIn(t, org.owner.actor.name!)
      const res = await asBrowser(t, browser, 'GET', '/api/app/overview')
      expect(res.statusCode, res.body).toBe(200)
      const atRisk = (res.json() as Overview).budgetsAtRisk
      expect(atRisk.map((b) => [b.name, b.breachDate])).toEqual([['Payments', '2026-11-25']])
      expect(atRisk[0]).toMatchObject({ amount: 3000, currency: 'USD', percent: 120 })
    })
  })
}
