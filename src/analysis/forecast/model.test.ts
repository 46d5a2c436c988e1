import { describe, expect, it } from 'vitest'
import { addDays } from '../../platform/time.js'
import { backtest, fitForecast, quantile, recurringCharges, weekdayOf } from './model.js'

/** A series rising `slope` a day from `level`, weekends at `weekend` of a weekday, with a deterministic wobble. */
function series(days: number, firstDate: string, level: number, slope: number, weekend: number, wobble = 0.05) {
  return Array.from({ length: days }, (_, i) => {
    const weekday = weekdayOf(addDays(firstDate, i))
    const season = weekday >= 5 ? weekend : 1
    const noise = 1 + wobble * Math.sin(i * 2.3) * Math.cos(i * 0.7)
    return (level + slope * i) * season * noise
  })
}

describe('forecast model', () => {
  it('finds a known weekly pattern and trend, and forecasts them', () => {
    const first = '2026-06-01' // a Monday
    const values = series(120, first, 100, 0.5, 0.4, 0)
    const model = fitForecast(values, first)
    // Weekend factor to weekday factor is the planted 0.4.
    expect(model.weeklyFactors[5]! / model.weeklyFactors[0]!).toBeCloseTo(0.4, 2)
    const day = addDays(first, 140) // a weekday 20 days ahead
    expect(weekdayOf(day)).toBeLessThan(5)
    const truth = 100 + 0.5 * 140
    expect(model.at(day).expected).toBeCloseTo(truth, 0)
    const point = model.at(day)
    expect(point.lower).toBeLessThanOrEqual(point.expected)
    expect(point.upper).toBeGreaterThanOrEqual(point.expected)
  })

  it('is not moved by a one-day spike as least squares would be', () => {
    const first = '2026-06-01'
    const values = series(90, first, 100, 0, 1, 0.02)
    values[80] = 5000
    const model = fitForecast(values, first)
    expect(model.at(addDays(first, 100)).expected).toBeGreaterThan(95)
    expect(model.at(addDays(first, 100)).expected).toBeLessThan(105)
  })

  it('sums a period with an interval around the sum of expected days', () => {
    const first = '2026-06-01'
    const model = fitForecast(series(60, first, 100, 0, 0.5, 0.1), first)
    const total = model.total('2026-08-01', '2026-08-31')
    let sum = 0
    for (let i = 0; i < 31; i++) sum += model.at(addDays('2026-08-01', i)).expected
    expect(total.expected).toBeCloseTo(sum, 6)
    expect(total.lower).toBeLessThan(total.expected)
    expect(total.upper).toBeGreaterThan(total.expected)
  })

  it('backtests against the seasonal naive forecast: better on a trend, a coverage between 0 and 1', () => {
    const first = '2026-03-02'
    const accuracy = backtest(series(150, first, 100, 1, 0.5, 0.05), first)
    expect(accuracy.backtestDays).toBe(28)
    expect(accuracy.mase).not.toBeNull()
    expect(accuracy.mase!).toBeLessThan(1)
    expect(accuracy.coverage80!).toBeGreaterThanOrEqual(0)
    expect(accuracy.coverage80!).toBeLessThanOrEqual(1)
    expect(backtest(series(40, first, 100, 1, 0.5), first).mase).toBeNull()
  })

  it('interpolates quantiles', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5)
    expect(quantile([5], 0.9)).toBe(5)
    expect(quantile([], 0.5)).toBeNaN()
  })
})

describe('recurring charges', () => {
  it('projects a charge seen on its day in two of the last three months, and not a one-off', () => {
    const charges = new Map([
      ['2026-09-05', 100],
      ['2026-10-05', 120],
      ['2026-10-17', 999],
      ['2026-11-05', 130],
      ['2026-09-30', 50],
      ['2026-10-31', 60],
    ])
    const projected = recurringCharges(charges, '2026-11-20', '2026-11-21', '2027-01-10')
    expect(projected.get('2026-12-05')).toBe(130)
    expect(projected.get('2027-01-05')).toBe(130)
    // The 31st recurs on a shorter month's last day.
    expect(projected.get('2026-11-30')).toBe(60)
    expect(projected.get('2026-12-31')).toBe(60)
    expect(projected.has('2026-12-17')).toBe(false)
    expect([...projected.keys()].every((d) => d >= '2026-11-21' && d <= '2027-01-10')).toBe(true)
  })
})
