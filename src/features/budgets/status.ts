/**
 * A budget's status in its current period, from its daily costs: plain arithmetic, no I/O. The actual spend is the
 * period's days up to the last one with data; the forecast adds each later day's expected cost (from the forecast
 * model) and its 80% interval; the breach date is the first day the running total, actual then expected, reaches
 * the amount. A threshold is a percent of the amount or an amount, on the actual spend or on the forecast.
 */
import type { ForecastPoint } from '../../analysis/forecast/model.js'
import { type BudgetPeriod, daysOf } from './periods.js'

export interface Threshold {
  kind: 'Percent' | 'Amount'
  value: number
  basis: 'Actual' | 'Forecast'
}

export interface BudgetFigures {
  actual: number
  forecast: ForecastPoint
  percent: number
  breachDate: string | null
}

/**
 * The period's figures. `actualByDay` holds the period's costs through `actualThrough` (later days are forecast);
 * `expected(day)` the forecast of a day after it.
 */
export function budgetFigures(input: {
  period: BudgetPeriod
  actualByDay: ReadonlyMap<string, number>
  actualThrough: string
  expected: (day: string) => ForecastPoint
  remaining: ForecastPoint
}): BudgetFigures {
  const { period } = input
  let actual = 0
  let running = 0
  let breachDate: string | null = null
  for (const day of daysOf(period.from, period.to)) {
    const cost = day <= input.actualThrough ? (input.actualByDay.get(day) ?? 0) : input.expected(day).expected
    if (day <= input.actualThrough) actual += cost
    running += cost
    if (breachDate === null && period.amount > 0 && running >= period.amount) breachDate = day
  }
  const forecast = {
    expected: actual + input.remaining.expected,
    lower: actual + input.remaining.lower,
    upper: actual + input.remaining.upper,
  }
  return {
    actual,
    forecast,
    percent: period.amount > 0 ? (100 * actual) / period.amount : 0,
    breachDate,
  }
}

/** The amount a threshold stands for in a period. */
export function thresholdAmount(threshold: Threshold, amount: number): number {
  return threshold.kind === 'Percent' ? (amount * threshold.value) / 100 : threshold.value
}

/** Whether a threshold is crossed by the figures (on its basis). */
export function crossed(threshold: Threshold, figures: BudgetFigures, amount: number): boolean {
  const spend = threshold.basis === 'Actual' ? figures.actual : figures.forecast.expected
  return spend >= thresholdAmount(threshold, amount)
}

/** What a budget's status reads: its scope's daily cost, in every tenancy it covers, summed by the caller. */
export interface ScopeCosts {
  /** Each day's cost of the scope in `currency` (other currencies left out), usage or every charge. */
  daily(from: string, to: string, charges: 'all' | 'usage'): Promise<Map<string, number>>
  /** The last settled day of the scope's tenancies (the earliest of theirs), or null when none recorded. */
  settledThrough(): Promise<string | null>
}
