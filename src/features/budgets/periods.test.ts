import { describe, expect, it } from 'vitest'
import { customPeriodErrors, periodOf } from './periods.js'
import { budgetFigures, crossed } from './status.js'

const monthly = { period: 'Monthly' as const, startDate: '2026-01-31', amount: 1000, periods: null }

describe('budget periods', () => {
  it('repeats from the start date, on shorter months on their last day', () => {
    expect(periodOf(monthly, '2026-01-30')).toBeNull()
    expect(periodOf(monthly, '2026-01-31')).toEqual({ from: '2026-01-31', to: '2026-02-27', amount: 1000 })
    expect(periodOf(monthly, '2026-02-28')).toEqual({ from: '2026-02-28', to: '2026-03-30', amount: 1000 })
    expect(periodOf(monthly, '2026-12-31')).toEqual({ from: '2026-12-31', to: '2027-01-30', amount: 1000 })
    const quarterly = { ...monthly, period: 'Quarterly' as const, startDate: '2026-01-01' }
    expect(periodOf(quarterly, '2026-11-28')).toEqual({ from: '2026-10-01', to: '2026-12-31', amount: 1000 })
    const annual = { ...monthly, period: 'Annually' as const, startDate: '2025-04-01' }
    expect(periodOf(annual, '2026-11-28')).toEqual({ from: '2026-04-01', to: '2027-03-31', amount: 1000 })
  })

  it('takes a custom period with its own amount, and refuses overlapping or reversed ones by field', () => {
    const periods = [
      { from: '2026-01-01', to: '2026-06-30', amount: 5000 },
      { from: '2026-07-01', to: '2026-12-31', amount: 8000 },
    ]
    const custom = { period: 'Custom' as const, startDate: '2026-01-01', amount: null, periods }
    expect(periodOf(custom, '2026-11-28')).toEqual(periods[1])
    expect(periodOf(custom, '2027-01-01')).toBeNull()
    expect(customPeriodErrors(periods)).toEqual({})
    expect(
      customPeriodErrors([
        { from: '2026-01-01', to: '2026-06-30', amount: 1 },
        { from: '2026-06-30', to: '2026-05-01', amount: 1 },
      ]),
    ).toEqual({ 'periods.1.to': ['must not be before from'] })
    expect(
      customPeriodErrors([
        { from: '2026-01-01', to: '2026-06-30', amount: 1 },
        { from: '2026-06-30', to: '2026-07-31', amount: 1 },
      ]),
    ).toEqual({ 'periods.1.from': ["must be after the previous period's end (2026-06-30)"] })
  })
})

describe('budget status', () => {
  it('adds the forecast to the actual spend and finds the day the running total reaches the amount', () => {
    const period = { from: '2026-11-01', to: '2026-11-30', amount: 1000 }
    const actualByDay = new Map<string, number>()
    for (let d = 1; d <= 20; d++) actualByDay.set(`2026-11-${String(d).padStart(2, '0')}`, 30)
    const figures = budgetFigures({
      period,
      actualByDay,
      actualThrough: '2026-11-20',
      expected: () => ({ expected: 50, lower: 40, upper: 60 }),
      remaining: { expected: 500, lower: 400, upper: 600 },
    })
    // 600 by the 20th, then 50 a day: 1,000 on the 28th.
    expect(figures).toEqual({
      actual: 600,
      forecast: { expected: 1100, lower: 1000, upper: 1200 },
      percent: 60,
      breachDate: '2026-11-28',
    })
    expect(crossed({ kind: 'Percent', value: 50, basis: 'Actual' }, figures, 1000)).toBe(true)
    expect(crossed({ kind: 'Percent', value: 80, basis: 'Actual' }, figures, 1000)).toBe(false)
    expect(crossed({ kind: 'Percent', value: 100, basis: 'Forecast' }, figures, 1000)).toBe(true)
    expect(crossed({ kind: 'Amount', value: 1200, basis: 'Forecast' }, figures, 1000)).toBe(false)
  })
})
