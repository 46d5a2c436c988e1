import { describe, expect, it } from 'vitest'
import { periodOf as serverPeriodOf } from '../../src/features/budgets/periods.js'
import { addDays, daysBetween } from '../../src/platform/time.js'
import {
  budgetsOfChart,
  daysIn,
  type PacedBudget,
  paceColumn,
  periodOf,
} from '../../web/src/components/chart/budget-pace.js'

/**
 * The explorer's budget pace line: the browser's periods are the server's (the pace is drawn from the same
 * periods the status is computed on), each period's pace adds up to its amount, and only a budget of the chart's
 * exact scope and currency is drawn.
 */

const TENANT = '0190c000-0000-7000-8000-000000000001'
const budget = (over: Partial<PacedBudget> = {}): PacedBudget => ({
  name: 'B',
  period: 'Monthly',
  amount: 3000,
  periods: null,
  startDate: '2026-01-31',
  currency: 'USD',
  scope: { tenancyIds: [TENANT], tags: [], resourceGroup: null, service: null },
  ...over,
})

describe('budget pace on the cost chart', () => {
  it('finds the same period as the server for every day, whatever the kind and start', () => {
    const days = daysBetween('2023-12-01', '2028-03-31')
    for (const period of ['Monthly', 'Quarterly', 'Annually'] as const) {
      for (const startDate of ['2024-01-31', '2024-02-29', '2024-03-01', '2025-11-08', '2026-12-31']) {
        const b = budget({ period, startDate })
        for (const day of days)
          expect(periodOf(b, day), `${period} ${startDate} ${day}`).toEqual(serverPeriodOf(b, day))
      }
    }
    const custom = budget({
      period: 'Custom',
      amount: null,
      periods: [
        { from: '2026-01-01', to: '2026-01-10', amount: 100 },
        { from: '2026-02-01', to: '2026-03-15', amount: 700 },
      ],
    })
    for (const day of daysBetween('2025-12-25', '2026-03-20'))
      expect(periodOf(custom, day), day).toEqual(serverPeriodOf(custom, day))
  })

  it("spreads each period's amount evenly over its days, and draws nothing outside the periods", () => {
    const b = budget({ startDate: '2026-01-31' })
    const days = daysBetween('2026-01-20', '2026-04-10')
    const pace = paceColumn(b, days)
    expect(pace.slice(0, 11)).toEqual(Array(11).fill(null))
    // 31 Jan to 27 Feb (28 days), 28 Feb to 30 Mar (31 days): a start on the 31st keeps to shorter months' ends.
    expect(pace[days.indexOf('2026-01-31')]).toBeCloseTo(3000 / 28, 10)
    expect(pace[days.indexOf('2026-02-28')]).toBeCloseTo(3000 / 31, 10)
    const february = daysBetween('2026-01-31', '2026-02-27').reduce((sum, d) => sum + pace[days.indexOf(d)]!, 0)
    expect(february).toBeCloseTo(3000, 8)
    expect(daysIn('2026-02-28', '2026-03-30')).toBe(31)
    const custom = budget({
      period: 'Custom',
      amount: null,
      periods: [{ from: '2026-02-01', to: '2026-02-10', amount: 50 }],
    })
    expect(paceColumn(custom, ['2026-01-31', '2026-02-01', '2026-02-10', addDays('2026-02-10', 1)])).toEqual([
      null,
      5,
      5,
      null,
    ])
  })

  it("matches a chart's scope exactly: the tenant's, or one resource group's in any letter case", () => {
    const tenantChart = { tenantId: TENANT, kind: 'tenant', value: '', currency: 'USD' }
    const groupChart = { tenantId: TENANT, kind: 'resourceGroup', value: 'Pay', currency: 'USD' }
    const whole = budget({ name: 'whole' })
    const group = budget({ name: 'group', scope: { tenancyIds: [TENANT], resourceGroup: 'PAY' } })
    const others = [
      budget({ name: 'organisation', scope: { tenancyIds: null } }),
      budget({ name: 'two', scope: { tenancyIds: [TENANT, '0190c000-0000-7000-8000-000000000002'] } }),
      budget({ name: 'tagged', scope: { tenancyIds: [TENANT], tags: [{ key: 'team', value: 'a' }] } }),
      budget({ name: 'service', scope: { tenancyIds: [TENANT], service: 'Storage' } }),
      budget({ name: 'euro', currency: 'EUR' }),
    ]
    const all = [whole, group, ...others]
    expect(budgetsOfChart(all, tenantChart).map((b) => b.name)).toEqual(['whole'])
    expect(budgetsOfChart(all, groupChart).map((b) => b.name)).toEqual(['group'])
    expect(budgetsOfChart(all, { ...groupChart, value: 'search' })).toEqual([])
    expect(budgetsOfChart(all, { ...tenantChart, kind: 'subscription', value: 'x' })).toEqual([])
    expect(budgetsOfChart(all, { ...tenantChart, currency: 'EUR' }).map((b) => b.name)).toEqual(['euro'])
  })
})
