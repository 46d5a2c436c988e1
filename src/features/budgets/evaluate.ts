import { fitForecast, MIN_FORECAST_HISTORY_DAYS } from '../../analysis/forecast/model.js'
import { addDays, dayCount } from '../../platform/time.js'
import { type BudgetPeriod, daysOf, periodOf } from './periods.js'
import type { BudgetRecord } from './schemas.js'
import { type BudgetFigures, budgetFigures, crossed, type ScopeCosts } from './status.js'
import type { BudgetDefinition } from './store.js'

/** The days a forecast of a budget's period learns from. */
const HISTORY_DAYS = 120

/**
 * The forecast of a scope's usage over [historyFrom, actualThrough], fitted once per usage read: budgets sharing a
 * scope share its read (see scopeCostsFor), and so the fit.
 */
const fits = new WeakMap<ReadonlyMap<string, number>, Map<string, ReturnType<typeof fitUsage>>>()

function fitted(usage: ReadonlyMap<string, number>, historyFrom: string, actualThrough: string) {
  const key = `${historyFrom}:${actualThrough}`
  let byRange = fits.get(usage)
  if (!byRange) {
    byRange = new Map()
    fits.set(usage, byRange)
  }
  let found = byRange.get(key)
  if (!found) {
    found = fitUsage(usage, historyFrom, actualThrough)
    byRange.set(key, found)
  }
  return found
}

function fitUsage(usage: ReadonlyMap<string, number>, historyFrom: string, actualThrough: string) {
  const days = daysOf(historyFrom, actualThrough)
  const firstAt = days.findIndex((d) => (usage.get(d) ?? 0) !== 0)
  const first = firstAt < 0 ? undefined : days[firstAt]
  const values = first ? days.slice(firstAt).map((d) => usage.get(d) ?? 0) : []
  const model = first && dayCount(first, actualThrough) >= MIN_FORECAST_HISTORY_DAYS ? fitForecast(values, first) : null
  const average = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0
  return { model, average }
}

/**
 * A budget's figures in the period holding `today`: the spend through the last settled day (or yesterday), the
 * forecast of the days after it (usage fitted, as the cost forecast does; without 28 days of history, the average
 * of the days there are carries on, with no interval), and each threshold's state given the latches of the period.
 */
export async function periodStatus(
  budget: BudgetDefinition,
  today: string,
  costs: ScopeCosts,
  latched: ReadonlyMap<number, string>,
): Promise<{
  period: BudgetPeriod
  figures: BudgetFigures
  status: NonNullable<BudgetRecord['status']>
  /** The last day of actual spend (later days are forecast). */
  actualThrough: string
} | null> {
  const period = periodOf(budget, today)
  if (!period) return null
  const settled = await costs.settledThrough()
  const yesterday = addDays(today, -1)
  const actualThrough = settled !== null && settled < yesterday ? settled : yesterday
  const historyFrom = addDays(actualThrough, -(HISTORY_DAYS - 1))
  const [actualByDay, usage] = await Promise.all([
    costs.daily(period.from, actualThrough < period.to ? actualThrough : period.to, 'all'),
    costs.daily(historyFrom, actualThrough, 'usage'),
  ])
  const { model, average } = fitted(usage, historyFrom, actualThrough)
  const expected = (day: string) => model?.at(day) ?? { expected: average, lower: average, upper: average }
  const restFrom = addDays(actualThrough, 1) > period.from ? addDays(actualThrough, 1) : period.from
  const remaining =
    restFrom > period.to
      ? { expected: 0, lower: 0, upper: 0 }
      : (model?.total(restFrom, period.to) ?? {
          expected: average * dayCount(restFrom, period.to),
          lower: average * dayCount(restFrom, period.to),
          upper: average * dayCount(restFrom, period.to),
        })
  const figures = budgetFigures({ period, actualByDay, actualThrough, expected, remaining })
  return {
    period,
    figures,
    actualThrough,
    status: {
      periodFrom: period.from,
      periodTo: period.to,
      amount: period.amount,
      actual: round(figures.actual),
      forecast: {
        expected: round(figures.forecast.expected),
        lower: round(figures.forecast.lower),
        upper: round(figures.forecast.upper),
      },
      percent: Math.round(figures.percent * 10) / 10,
      breachDate: figures.breachDate,
      thresholds: budget.thresholds.map((threshold, index) => {
        // Latched in this period since the day it crossed; crossed now and not yet latched: since the last day seen.
        const since = latched.get(index) ?? (crossed(threshold, figures, period.amount) ? actualThrough : null)
        return { ...threshold, state: since === null ? ('Ok' as const) : ('Alarm' as const), since }
      }),
    },
  }
}

const round = (v: number) => Math.round(v * 100) / 100
