import {
  backtest,
  type ForecastPoint,
  fitForecast,
  MIN_FORECAST_HISTORY_DAYS,
  recurringCharges,
} from '../../analysis/forecast/model.js'
import { ApiError } from '../../platform/http/errors.js'
import { roundMoney } from '../../platform/money.js'
import { addDays, addMonths, dayCount, daysBetween, monthEndOf, monthStart } from '../../platform/time.js'
import { byKeyAndDay, type KeyedCost, keptKeys, OTHER_GROUP } from './groups.js'
import type { CostForecast } from './schemas.js'

/** How far back a forecast reads its history: the fit uses its newest 84 days, the backtest the 28 before. */
export const FORECAST_HISTORY_DAYS = 180
/** The longest forecast: 12 months past today. */
export const FORECAST_MAX_MONTHS = 12

/** The days a forecast reads and forecasts, from today and the tenant's last settled day. */
export function forecastWindow(today: string, settledThrough: string | null, to: string | undefined) {
  const historyTo = settledThrough !== null && settledThrough < today ? settledThrough : addDays(today, -1)
  const from = addDays(historyTo, 1)
  const until = to ?? monthEndOf(today)
  const latest = addMonths(today, FORECAST_MAX_MONTHS)
  if (until < from) throw ApiError.invalid({ to: [`must be on or after ${from}, the first day not yet settled`] })
  if (until > latest)
    throw ApiError.invalid({ to: [`must be at most ${FORECAST_MAX_MONTHS} months ahead (${latest})`] })
  return { historyFrom: addDays(historyTo, -(FORECAST_HISTORY_DAYS - 1)), historyTo, from, to: until }
}

type Row = KeyedCost

const rounded = (p: ForecastPoint) => ({
  expected: roundMoney(p.expected),
  lower: roundMoney(p.lower),
  upper: roundMoney(p.upper),
})

/**
 * The forecast of a chart's series: each series' usage fitted on its settled history (from the scope's first day
 * with usage cost), its recurring other charges added, the month's settled actual cost added to its month-end.
 * Fewer than MIN_FORECAST_HISTORY_DAYS days from the first day with usage cost: a 422.
 */
export function forecastOf(input: {
  window: ReturnType<typeof forecastWindow>
  today: string
  /** Usage cost over the history, keyed by group ('' ungrouped). */
  usage: readonly Row[]
  /** Other charges (purchases, taxes, credits…) over the history, keyed alike. */
  otherCharges: readonly Row[]
  /** Every charge from the first of today's month through historyTo, keyed alike. */
  monthToDate: readonly Row[]
  maxGroups: number
  nameOf: (key: string) => string
}): Pick<CostForecast, 'historyFrom' | 'accuracy' | 'series'> {
  const { window, today } = input
  const historyDays = daysBetween(window.historyFrom, window.historyTo)
  const totalByDay = new Map<string, number>()
  for (const r of input.usage) totalByDay.set(r.date, (totalByDay.get(r.date) ?? 0) + r.cost)
  const firstDay = historyDays.find((d) => (totalByDay.get(d) ?? 0) !== 0)
  const days = firstDay ? dayCount(firstDay, window.historyTo) : 0
  if (!firstDay || days < MIN_FORECAST_HISTORY_DAYS) {
    throw new ApiError(422, 'not-enough-history', 'There is not enough cost history to forecast.', {
      detail:
        `A forecast needs at least ${MIN_FORECAST_HISTORY_DAYS} settled days of usage cost; this scope has ` +
        `${days} (through ${window.historyTo}).`,
      extra: { historyDays: days, requiredDays: MIN_FORECAST_HISTORY_DAYS },
    })
  }
  const fitted = daysBetween(firstDay, window.historyTo)
  const valuesOf = (byDay: ReadonlyMap<string, number> | undefined) => fitted.map((d) => byDay?.get(d) ?? 0)

  // Groups ranked by their whole cost over the history: a group of purchases alone (support) is a series too.
  const keyOf = keptKeys(byKeyAndDay([...input.usage, ...input.otherCharges]), input.maxGroups)
  const fold = (rows: readonly Row[]) => byKeyAndDay(rows.map((r) => ({ ...r, key: keyOf(r.key) })))
  const usageKept = fold(input.usage)
  const others = fold(input.otherCharges)
  const monthToDate = fold(input.monthToDate)

  const monthEnd = monthEndOf(today)
  const monthFrom = window.from > monthStart(today) ? window.from : monthStart(today)
  const forecastDays = daysBetween(window.from, window.to)
  const sum = (byDay: ReadonlyMap<string, number> | undefined, from: string, to: string) =>
    [...(byDay ?? new Map<string, number>())].reduce((a, [d, c]) => (d >= from && d <= to ? a + c : a), 0)

  const historyCost = (key: string) =>
    sum(usageKept.get(key), firstDay, window.historyTo) + sum(others.get(key), firstDay, window.historyTo)
  const series = [...new Set([...usageKept.keys(), ...others.keys()])]
    .sort((a, b) => historyCost(b) - historyCost(a) || (a < b ? -1 : 1))
    .map((key) => {
      const model = fitForecast(valuesOf(usageKept.get(key)), firstDay)
      const recurring = recurringCharges(
        others.get(key) ?? new Map(),
        window.historyTo,
        window.from,
        monthEnd > window.to ? monthEnd : window.to,
      )
      const withCharges = (p: ForecastPoint, extra: number) => ({
        expected: p.expected + extra,
        lower: p.lower + extra,
        upper: p.upper + extra,
      })
      const totalOf = (from: string, to: string) =>
        from > to ? { expected: 0, lower: 0, upper: 0 } : withCharges(model.total(from, to), sum(recurring, from, to))
      const month = totalOf(monthFrom, monthEnd)
      const actual = sum(monthToDate.get(key), monthStart(today), window.historyTo)
      return {
        key,
        name: key === OTHER_GROUP ? OTHER_GROUP : input.nameOf(key),
        points: forecastDays.map((date) => ({
          date,
          ...rounded(withCharges(model.at(date), recurring.get(date) ?? 0)),
        })),
        monthEnd: { date: monthEnd, ...rounded(withCharges(month, actual)) },
        periodTotal: { from: window.from, to: window.to, ...rounded(totalOf(window.from, window.to)) },
      }
    })

  const accuracy = backtest(valuesOf(totalByDay), firstDay)
  return {
    historyFrom: firstDay,
    accuracy: {
      mase: accuracy.mase === null ? null : Math.round(accuracy.mase * 1000) / 1000,
      coverage80: accuracy.coverage80 === null ? null : Math.round(accuracy.coverage80 * 1000) / 1000,
      backtestDays: accuracy.backtestDays,
    },
    series,
  }
}
