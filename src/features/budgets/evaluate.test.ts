import { describe, expect, it } from 'vitest'
import { daysBetween } from '../../platform/time.js'
import { periodStatus } from './evaluate.js'
import type { ScopeCosts } from './status.js'
import type { BudgetDefinition } from './store.js'

const budget: BudgetDefinition = {
  id: 'b',
  organisationId: 'o',
  name: 'Payments',
  scope: { tenancyIds: ['t'] },
  period: 'Monthly',
  amount: 3000,
  periods: null,
  currency: 'USD',
  startDate: '2026-01-01',
  costBasis: 'Effective',
  thresholds: [
    { kind: 'Percent', value: 50, basis: 'Actual' },
    { kind: 'Percent', value: 100, basis: 'Forecast' },
    { kind: 'Amount', value: 5000, basis: 'Forecast' },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}

/** 100 a day of usage since August, settled through the 19th of November. */
const costs: ScopeCosts = {
  async daily(from, to) {
    return new Map(daysBetween(from < '2026-08-01' ? '2026-08-01' : from, to).map((d) => [d, 100]))
  },
  async settledThrough() {
    return '2026-11-19'
  },
}

describe("a budget's period status", () => {
  it('adds the forecast of the unsettled days, dates the breach, and states each threshold', async () => {
    const result = await periodStatus(budget, '2026-11-20', costs, new Map([[0, '2026-11-15']]))
    expect(result!.status).toMatchObject({
      periodFrom: '2026-11-01',
      periodTo: '2026-11-30',
      amount: 3000,
      actual: 1900,
      percent: 63.3,
      breachDate: '2026-11-30',
    })
    expect(result!.status.forecast.expected).toBeCloseTo(3000, 0)
    expect(result!.status.thresholds.map((t) => [t.state, t.since])).toEqual([
      ['Alarm', '2026-11-15'],
      ['Alarm', '2026-11-19'],
      ['Ok', null],
    ])
    expect(await periodStatus({ ...budget, startDate: '2026-12-01' }, '2026-11-20', costs, new Map())).toBeNull()
  })
})
