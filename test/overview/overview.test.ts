import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DailyCostRow } from '../../src/connectors/types.js'
import type { Overview } from '../../src/features/overview/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { daysBetween } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { collectRows, costRow } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'
import { activeMember, asBrowser, type Browser, setPassword, signIn } from '../support/members.js'

const API = '/api/public/v1'
const APP = '/api/app'
const NOW = '2026-11-20T09:00:00.000Z'
const TODAY = '2026-11-20'
/** Alpha's sources have settled its costs through this day; the three days after are preliminary. */
const SETTLED = '2026-11-17'
const SUB_A = '11111111-aaaa-4aaa-8aaa-111111111111'
const SUB_B = '22222222-bbbb-4bbb-8bbb-222222222222'
const arm = (sub: string, group: string, type: string, name: string) =>
  `/subscriptions/${sub}/resourcegroups/${group}/providers/${type}/${name}`
const VM = arm(SUB_A, 'app', 'microsoft.compute/virtualmachines', 'vm-1')
const STORAGE = arm(SUB_A, 'data', 'microsoft.storage/storageaccounts', 'st1')
const DB = arm(SUB_A, 'db', 'microsoft.sql/servers', 'sql-1')
const VM_B = arm(SUB_B, 'web', 'microsoft.compute/virtualmachines', 'vm-b')

/**
 * Alpha (USD, since August): a VM at 100 a day that runs at 160 from 11 November, storage flat at 20, a database
 * at 50 that drops to 30 the same day, and a support plan bought on the 5th of each month. Beta (EUR): 10 a day
 * since 1 November, too young to forecast.
 */
function alphaRows(): DailyCostRow[] {
  const rows: DailyCostRow[] = []
  for (const date of daysBetween('2026-08-01', TODAY)) {
    const after = date >= '2026-11-11'
    rows.push(costRow({ subscriptionId: SUB_A, resourceArmId: VM, date, cost: after ? 160 : 100, currency: 'USD' }))
    rows.push(
      costRow({
        subscriptionId: SUB_A,
        resourceArmId: STORAGE,
        resourceGroupName: 'data',
        serviceName: 'Storage',
        meterId: 'meter-st',
        date,
        cost: 20,
        currency: 'USD',
      }),
    )
    rows.push(
      costRow({
        subscriptionId: SUB_A,
        resourceArmId: DB,
        resourceGroupName: 'db',
        serviceName: 'SQL Database',
        meterId: 'meter-db',
        date,
        cost: after ? 30 : 50,
        currency: 'USD',
      }),
    )
    if (date.endsWith('-05')) {
      rows.push(
        costRow({
          subscriptionId: SUB_A,
          resourceArmId: null,
          resourceGroupName: null,
          chargeCategory: 'Purchase',
          serviceName: 'Support',
          meterId: 'support',
          date,
          cost: 300,
          currency: 'USD',
        }),
      )
    }
  }
  return rows
}
const betaRows = (): DailyCostRow[] =>
  daysBetween('2026-11-01', TODAY).map((date) =>
    costRow({ subscriptionId: SUB_B, resourceArmId: VM_B, resourceGroupName: 'web', date, cost: 10, currency: 'EUR' }),
  )

/** The planted cost of a window, every category: what month-to-date must say, summed here independently. */
const plantedCost = (rows: DailyCostRow[], from: string, to: string) =>
  Math.round(rows.filter((r) => r.date >= from && r.date <= to).reduce((a, r) => a + r.cost, 0) * 100) / 100

for (const dialect of testDialects()) {
  describe(`${dialect}: the overview`, () => {
    const t = useTestApp({ dialect, now: NOW })
    let org: OrgContext
    let alpha: TenantRecord
    let beta: TenantRecord
    let owner: Browser
    let viewer: Browser

    const collect = (tenantId: string, rows: DailyCostRow[], settledThrough?: string) =>
      collectRows(t, tenantId, rows, settledThrough ? { settledThrough, to: TODAY } : undefined)
    const overview = async (who: Browser, query = ''): Promise<Overview> => {
      const res = await asBrowser(t, who, 'GET', `${APP}/overview${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json()
    }
    const marker = async (tenantId: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', `${API}/tenants/${tenantId}/events`, org.ownerKey, body)
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as { id: string }
    }
    const anomaly = (tenant: TenantRecord, severity: string, status: string, currency = 'USD') =>
      t.db.kysely
        .insertInto('anomalies')
        .values({
          id: randomUUID(),
          organisationId: org.organisationId,
          tenantId: tenant.id,
          scopeKey: `sub-${randomUUID()}`,
          scopeKind: 'Subscription',
          subscriptionId: SUB_A,
          dateRaised: '2026-11-15',
          severity,
          status,
          expectedCost: 100,
          actualCost: 180,
          impact: 80,
          impactPercent: 80,
          currency,
          description: 'Seeded',
          detectedAt: NOW,
          updatedAt: NOW,
        })
        .execute()
    const insight = (
      tenant: TenantRecord,
      savings: number,
      currency: string,
      status = 'Active',
      snoozedUntil?: string,
    ) =>
      t.db.kysely
        .insertInto('insights')
        .values({
          id: randomUUID(),
          tenantId: tenant.id,
          resourceId: randomUUID(),
          category: 'OrphanedResource',
          resourceName: `disk-${savings}`,
          subscriptionId: SUB_A,
          resourceGroupName: 'app',
          severity: 'Medium',
          title: `disk-${savings}: unattached`,
          description: 'Seeded',
          recommendation: 'Delete it',
          estimatedMonthlySavings: savings,
          currency,
          status,
          snoozedUntil: snoozedUntil ?? null,
          found: 1,
          detectedAt: NOW,
          updatedAt: NOW,
        })
        .execute()

    let deploy: { id: string }
    let tagged: { id: string }
    beforeAll(async () => {
      org = await t.given.organisation()
      alpha = await t.given.tenant(org, { name: 'Alpha estate' })
      beta = await t.given.tenant(org, { name: 'Beta estate' })
      await collect(alpha.id, alphaRows(), SETTLED)
      await collect(beta.id, betaRows())
      deploy = await marker(alpha.id, {
        occurredAt: '2026-11-10T16:00:00Z',
        title: 'Scale-out',
        category: 'Deployment',
      })
      tagged = await marker(alpha.id, {
        occurredAt: '2026-11-12T08:00:00Z',
        title: 'Payments release',
        category: 'Deployment',
        tagKey: 'team',
        tagValue: 'payments',
      })
      // Outside both weeks: no cause of this week's change.
      await marker(alpha.id, { occurredAt: '2026-10-01T08:00:00Z', title: 'Old change', category: 'Deployment' })

      for (const [severity, status] of [
        ['High', 'Active'],
        ['High', 'Active'],
        ['Medium', 'Active'],
        ['Low', 'Resolved'],
        ['Medium', 'Acknowledged'],
      ]) {
        await anomaly(alpha, severity!, status!)
      }
      await anomaly(beta, 'Low', 'Active', 'EUR')
      await insight(alpha, 12.5, 'USD')
      await insight(alpha, 30, 'USD')
      await insight(alpha, 100, 'USD', 'Dismissed')
      await insight(alpha, 5, 'USD', 'Snoozed', '2026-11-19T00:00:00.000Z')
      await insight(alpha, 40, 'USD', 'Snoozed', '2026-12-19T00:00:00.000Z')
      await insight(beta, 7.25, 'EUR')

      await setPassword(t, org.ownerId)
      owner = await signIn(t, org.owner.actor.name!)
      const member = await activeMember(t, org, 'viewer@overview.test')
      const granted = await t.request('PUT', `${API}/tenancies/${beta.id}/users/${member.id}`, org.ownerKey, {
        role: 'Viewer',
      })
      expect(granted.statusCode, granted.body).toBe(200)
      viewer = await signIn(t, member.email)
    })

    it('answers month-to-date spend against the same days of last month, per currency, preliminary days included', async () => {
      const body = await overview(owner)
      expect(body.asOf).toBe(TODAY)
      expect(body.tenancies.map((x) => x.name)).toEqual(['Alpha estate', 'Beta estate'])
      expect(body.currencies.map((c) => c.currency)).toEqual(['USD', 'EUR'])
      const usd = body.currencies[0]!
      const mtd = plantedCost(alphaRows(), '2026-11-01', TODAY)
      const before = plantedCost(alphaRows(), '2026-10-01', '2026-10-20')
      expect(mtd).toBe(4100)
      expect(before).toBe(3700)
      expect(usd.monthToDate).toEqual({
        from: '2026-11-01',
        to: TODAY,
        days: 20,
        amount: mtd,
        preliminaryFrom: '2026-11-18',
        previous: { from: '2026-10-01', to: '2026-10-20', days: 20, amount: before },
        change: 400,
        changePercent: 10.8,
      })
      const eur = body.currencies[1]!
      expect(eur.monthToDate).toMatchObject({ amount: 200, previous: { amount: 0, days: 20 }, change: 200 })
      expect(eur.monthToDate.changePercent).toBeNull()
      // Beta has no settled day recorded: only today is taken as incomplete.
      expect(eur.monthToDate.preliminaryFrom).toBe(TODAY)
    })

    it("forecasts the month's end from 28 days of settled history or more, and says when there is not enough", async () => {
      const body = await overview(owner)
      const usd = body.currencies.find((c) => c.currency === 'USD')!
      expect(usd.forecast.date).toBe('2026-11-30')
      expect(usd.forecast.tenancies).toHaveLength(1)
      const [alphaForecast] = usd.forecast.tenancies
      expect(alphaForecast).toMatchObject({ tenancyId: alpha.id, status: 'Forecast', requiredDays: 28 })
      expect(alphaForecast!.historyDays).toBe(daysBetween('2026-08-01', SETTLED).length)
      // The same month-end as the tenancy's own cost forecast: one model for the explorer and the overview.
      const own = await t.request('GET', `${API}/tenants/${alpha.id}/costs/forecast`, org.ownerKey)
      expect(own.statusCode, own.body).toBe(200)
      const { date: _, ...monthEnd } = own.json().series[0].monthEnd
      expect(alphaForecast!.monthEnd).toEqual(monthEnd)
      expect(usd.forecast.total).toEqual(monthEnd)
      // The settled actual (1 to 17 November: 3,470) and 13 more days at this week's 210 a day.
      expect(monthEnd.expected).toBeCloseTo(3470 + 13 * 210, -1)
      expect(monthEnd.lower).toBeLessThan(monthEnd.expected)
      expect(monthEnd.upper).toBeGreaterThanOrEqual(monthEnd.expected)

      const eur = body.currencies.find((c) => c.currency === 'EUR')!
      expect(eur.forecast.total).toBeNull()
      expect(eur.forecast.tenancies).toEqual([
        {
          tenancyId: beta.id,
          name: 'Beta estate',
          status: 'NotEnoughHistory',
          historyDays: 19,
          requiredDays: 28,
          monthEnd: null,
        },
      ])
    })

    it("ranks this week's movers by the change of their daily rate, with the markers visible on each", async () => {
      const usd = (await overview(owner)).currencies.find((c) => c.currency === 'USD')!
      expect(usd.movers.map((m) => [m.kind, m.name, m.change])).toEqual([
        ['ResourceGroup', 'app', 60],
        ['Service', 'Virtual Machines', 60],
        ['Subscription', SUB_A, 40],
        ['ResourceGroup', 'db', -20],
        ['Service', 'SQL Database', -20],
      ])
      const [app, vms, sub] = usd.movers
      // The last 7 settled days against the 7 before.
      expect(app).toMatchObject({
        tenancyId: alpha.id,
        tenancyName: 'Alpha estate',
        key: `${SUB_A}/app`,
        subscriptionId: SUB_A,
        from: '2026-11-11',
        to: SETTLED,
        previousFrom: '2026-11-04',
        previousTo: '2026-11-10',
        dailyRate: 160,
        previousDailyRate: 100,
        changePercent: 60,
      })
      expect(app!.link).toBe(
        `/tenants/${alpha.id}?scope=resourceGroup%3Aapp&subscriptionId=${SUB_A}&from=2026-11-04&to=${SETTLED}`,
      )
      expect(sub!.link).toBe(`/tenants/${alpha.id}?scope=subscription%3A${SUB_A}&from=2026-11-04&to=${SETTLED}`)
      expect(vms!.link).toBe(`/tenants/${alpha.id}?groupBy=service&from=2026-11-04&to=${SETTLED}`)
      // A service is tenant-wide: a broad chart shows the tagged marker too. The group is unknown to the
      // inventory, so only universal markers are visible on it; the October marker is outside both weeks.
      expect(vms!.markers.map((m) => m.id)).toEqual([deploy.id, tagged.id])
      expect(app!.markers.map((m) => m.id)).toEqual([deploy.id])
      expect(app!.markers[0]).toMatchObject({ title: 'Scale-out', category: 'Deployment' })
      // Storage did not move; Beta's flat week gives no mover at all.
      expect(usd.movers.some((m) => m.name === 'Storage')).toBe(false)
      expect((await overview(owner)).currencies.find((c) => c.currency === 'EUR')!.movers).toEqual([])
    })

    it("counts active anomalies by severity and sums active insights' savings as their lists do", async () => {
      const body = await overview(owner)
      const listed = async (query: string) => {
        const res = await asBrowser(t, owner, 'GET', `${APP}/anomalies?${query}`)
        expect(res.statusCode, res.body).toBe(200)
        return res.json().totalCount as number
      }
      for (const s of body.anomalies.bySeverity) {
        expect(s.count, s.severity).toBe(await listed(`status=Active&severity=${s.severity}`))
        expect(s.link).toBe(`/anomalies?status=Active&severity=${s.severity}`)
      }
      expect(body.anomalies.bySeverity.map((s) => [s.severity, s.count])).toEqual([
        ['High', 2],
        ['Medium', 1],
        ['Low', 1],
      ])
      expect(body.anomalies.total).toBe(await listed('status=Active'))
      expect(body.anomalies.link).toBe('/anomalies?status=Active')

      const insights = await asBrowser(t, owner, 'GET', `${APP}/insights?pageSize=200`)
      const items: { estimatedMonthlySavings: number; currency: string }[] = insights.json().items
      for (const c of body.currencies) {
        const mine = items.filter((i) => i.currency === c.currency)
        expect(c.savings.insights, c.currency).toBe(mine.length)
        expect(c.savings.monthly, c.currency).toBe(mine.reduce((a, i) => a + i.estimatedMonthlySavings, 0))
        expect(c.savings.link).toBe('/insights')
      }
      expect(body.currencies.map((c) => [c.currency, c.savings.monthly])).toEqual([
        ['USD', 47.5],
        ['EUR', 7.25],
      ])
      expect(body.budgetsAtRisk).toEqual([])
    })

    it("shows a Viewer only their tenancy's figures, and narrows to one tenancy on request", async () => {
      const seen = await overview(viewer)
      expect(seen.tenancies).toEqual([{ id: beta.id, name: 'Beta estate' }])
      expect(seen.currencies.map((c) => c.currency)).toEqual(['EUR'])
      expect(seen.anomalies.total).toBe(1)
      expect(seen.anomalies.bySeverity.find((s) => s.severity === 'Low')!.count).toBe(1)
      // Alpha is no tenancy of theirs: like an unknown one.
      const hidden = await asBrowser(t, viewer, 'GET', `${APP}/overview?tenancyId=${alpha.id}`)
      expect(hidden.statusCode).toBe(404)
      expect(hidden.headers['content-type']).toContain('application/problem+json')
      expect((await asBrowser(t, owner, 'GET', `${APP}/overview?tenancyId=${randomUUID()}`)).statusCode).toBe(404)

      const narrowed = await overview(owner, `?tenancyId=${beta.id}`)
      expect(narrowed.tenancies.map((x) => x.id)).toEqual([beta.id])
      expect(narrowed.currencies.map((c) => c.currency)).toEqual(['EUR'])
      expect(narrowed.anomalies.link).toBe(`/anomalies?tenancyId=${beta.id}&status=Active`)
      expect(narrowed.currencies[0]!.savings.link).toBe(`/insights?tenancyId=${beta.id}`)

      const bad = await asBrowser(t, owner, 'GET', `${APP}/overview?tenancyId=alpha`)
      expect(bad.statusCode).toBe(400)
      expect(JSON.stringify(bad.json())).toContain('tenancyId')
      expect((await t.app.inject({ method: 'GET', url: `${APP}/overview` })).statusCode).toBe(401)
    })
  })
}
