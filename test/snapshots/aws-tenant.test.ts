import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { exportCsv, sampleExport } from '../support/focus-providers.js'
import { costByDayOfRows, uploadAndWait } from '../support/focus-pull.js'

const API = '/api/public/v1'
// An AWS Data Exports FOCUS 1.2 export of six resources over September and October.
const sample = sampleExport('aws-1.2', { seed: 3, days: 45, resources: 6, firstDay: '2025-09-05' })

for (const dialect of testDialects()) {
  describe(`${dialect}: an AWS account's FOCUS export, pushed to a tenant`, () => {
    const t = useTestApp({ dialect, now: '2025-10-25T09:00:00.000Z' })

    it('shows the account like an Azure tenant: its provider, accounts, charts and a budget of it', async () => {
      const org = await t.given.organisation()
      const created = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'AWS',
        costSource: 'FocusUpload',
      })
      const tenant = created.json()
      const run = await uploadAndWait(t, org, tenant.id, exportCsv(sample), 'aws-focus.csv')
      expect(run).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-09' }, { billingPeriod: '2025-10' }],
      })
      expect(run.conformance.length).toBeGreaterThan(10)
      expect(run.conformance.every((c: { failedRows: number }) => c.failedRows === 0)).toBe(true)

      const record = (await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json()
      expect(record).toMatchObject({ costSource: 'FocusUpload', provider: 'AWS' })
      // Its accounts stand where an Azure tenant's subscriptions do.
      const accounts = (await t.request('GET', `${API}/tenants/${tenant.id}/subscriptions`, org.ownerKey)).json()
      const expectedAccounts = [...new Set(sample.rows.map((r) => r.SubAccountId))].sort()
      expect(accounts.items.map((s: { subscriptionId: string }) => s.subscriptionId).sort()).toEqual(expectedAccounts)

      // The chart's days, and its services, sum to the export's own sums.
      const expected = costByDayOfRows(sample.rows)
      const chart = (
        await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/costs/daily?from=2025-09-05&to=2025-10-19&groupBy=service`,
          org.ownerKey,
        )
      ).json()
      for (const point of chart.points as { date: string; cost: number }[])
        expect(point.cost, point.date).toBeCloseTo(expected[point.date] ?? 0, 2)
      const byService = (chart.groups as { cost: number }[]).reduce((sum, g) => sum + g.cost, 0)
      const total = Object.values(expected).reduce((sum, c) => sum + c, 0)
      expect(byService).toBeCloseTo(total, 1)

      // A budget of the tenancy reads its spend as it reads an Azure tenant's.
      const budget = await t.request('POST', `${API}/budgets`, org.ownerKey, {
        name: 'AWS October',
        scope: { tenancyIds: [tenant.id] },
        period: 'Monthly',
        amount: 100000,
        currency: 'USD',
        startDate: '2025-10-01',
        thresholds: [{ kind: 'Percent', value: 80, basis: 'Actual' }],
      })
      expect(budget.statusCode, budget.body).toBe(201)
      expect(budget.json().status.actual).toBeGreaterThan(0)
    })
  })
}
