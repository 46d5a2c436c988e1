/**
 * Cost forecasting over one daily usage series: pure arithmetic on a plain array, no I/O.
 *
 * The method (why it, against Azure's, AWS's and Koku's, is in docs/forecast.md):
 * - weekly seasonal factors: each weekday's median ratio to its centred 7-day mean over the fit window,
 *   normalised to average 1 (all 1 when a weekday pattern is absent or the series is too quiet to show one);
 * - a robust trend: the Theil-Sen slope (the median of the slopes of pairs of days a week or more apart) of the
 *   deseasonalised series of the fit window, so a spike or an outage moves it far less than least squares would,
 *   through the level of the last week (the median of its deseasonalised days carried to the last one);
 * - the expected cost of a day: the trend at that day times its weekday's factor, never below 0;
 * - an 80% interval from the 10th and 90th percentiles of the fit window's residuals, in proportion to the
 *   fitted value, widened with the horizon as the level's and the slope's errors grow.
 * Callers pass settled usage costs only (see the anomalies' `settledThrough`); purchases, taxes and credits recur
 * on their own days (recurringCharges) and are not extrapolated.
 */

import { addDays, dayDiff, monthEndOf } from '../../platform/time.js'

/** Below this many days of history there is no forecast (Azure's rule). */
export const MIN_FORECAST_HISTORY_DAYS = 28
/** The newest days the weekly factors, the trend and the interval are fitted on: twelve of each weekday. */
export const FIT_WINDOW_DAYS = 84
/**
 * The newest days the level is read from: a week, so that a lasting change is the level a week later (the
 * seasonal-naive forecast it is scored against adopts one at once).
 */
const LEVEL_DAYS = 7
/**
 * The horizon over which the interval's width grows by a factor of √2: the residuals around the fit understate how
 * far a day weeks ahead strays (a lasting change to come is in none of them). Chosen on the evaluation's seeds 1-10
 * and checked on seeds 11-30 (docs/forecast.md).
 */
const WIDEN_DAYS = 2
/** The backtest's length: the last four weeks, each forecast from the history before it. */
export const BACKTEST_DAYS = 28
/** The interval's nominal coverage: AWS Cost Explorer's 80%. */
export const INTERVAL_COVERAGE = 0.8

export interface ForecastPoint {
  expected: number
  lower: number
  upper: number
}

export interface ForecastModel {
  /** The day after the last of the history: the first day forecast. */
  firstForecastDate: string
  /** The expected cost of a day at or after firstForecastDate (a day of the history: its fitted value). */
  at(date: string): ForecastPoint
  /** The sum over [from, to] of the expected daily cost, with an 80% interval of the sum. */
  total(from: string, to: string): ForecastPoint
  /** Monday 0 … Sunday 6: each weekday's factor (1 = an average day). */
  weeklyFactors: readonly number[]
  /** The deseasonalised daily trend: its level on firstForecastDate, and its change per day. */
  level: number
  slope: number
}

/** Monday 0 … Sunday 6 of a `YYYY-MM-DD` day. */
export function weekdayOf(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7
}

/** The q-quantile (0..1) of `values` by linear interpolation; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const below = Math.floor(at)
  const above = Math.min(sorted.length - 1, below + 1)
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below)
}

const median = (values: readonly number[]) => quantile(values, 0.5)

/** Each weekday's median ratio to its centred 7-day mean, normalised to average 1; 1s when it cannot be told. */
function seasonalFactors(values: readonly number[], firstWeekday: number): number[] {
  const ratios: number[][] = [[], [], [], [], [], [], []]
  let windowSum = 0
  for (let i = 0; i < Math.min(7, values.length); i++) windowSum += values[i]!
  for (let centre = 3; centre + 3 < values.length; centre++) {
    if (centre > 3) windowSum += values[centre + 3]! - values[centre - 4]!
    const mean = windowSum / 7
    if (mean > 0) ratios[(firstWeekday + centre) % 7]!.push(values[centre]! / mean)
  }
  if (ratios.some((r) => r.length < 2)) return [1, 1, 1, 1, 1, 1, 1]
  const raw = ratios.map((r) => median(r))
  const mean = raw.reduce((a, b) => a + b, 0) / 7
  return mean > 0 ? raw.map((f) => f / mean) : [1, 1, 1, 1, 1, 1, 1]
}

/** Theil-Sen: the median of pairwise slopes and the median intercept of `y` against its position. */
function theilSen(y: readonly number[]): { intercept: number; slope: number } {
  const slopes: number[] = []
  // Pairs at least a week apart: neighbouring days' slopes are mostly noise and would dominate the median.
  const minGap = y.length >= 21 ? 7 : 1
  for (let i = 0; i < y.length; i++) {
    for (let j = i + minGap; j < y.length; j++) slopes.push((y[j]! - y[i]!) / (j - i))
  }
  const slope = slopes.length ? median(slopes) : 0
  const intercept = median(y.map((v, i) => v - slope * i))
  return { intercept, slope }
}

/**
 * Fits the model to `values`, the daily usage cost from `firstDate` on (one value a day, the last the newest
 * settled day). At least one value; callers refuse fewer than MIN_FORECAST_HISTORY_DAYS days before fitting.
 */
export function fitForecast(values: readonly number[], firstDate: string): ForecastModel {
  const skip = Math.max(0, values.length - FIT_WINDOW_DAYS)
  const window = values.slice(skip)
  const windowStart = addDays(firstDate, skip)
  const firstWeekday = weekdayOf(windowStart)
  const factors = seasonalFactors(window, firstWeekday)
  const factorAt = (i: number) => factors[(firstWeekday + i) % 7]!
  const deseasonalised = window.map((v, i) => (factorAt(i) > 0 ? v / factorAt(i) : v))
  const n = window.length
  const last = n - 1
  const { slope } = theilSen(deseasonalised)
  // The level where the history ends, from its last LEVEL_DAYS: a lasting change weeks ago is the level now, not
  // half of it, as a line through the whole window would have it.
  const recent = deseasonalised.slice(-LEVEL_DAYS)
  const level = median(recent.map((v, k) => v - slope * (k - (recent.length - 1))))
  const fitted = (i: number) => Math.max(0, (level + slope * (i - last)) * factorAt(i))

  // Residuals in proportion to the fitted value, so a busy weekday's band is wider.
  const scale = Math.max(1e-9, median(window.map((_, i) => fitted(i))), median(window.filter((v) => v > 0)) || 0)
  const relative = window.map((v, i) => (v - fitted(i)) / Math.max(fitted(i), scale * 0.05))
  const tail = (1 - INTERVAL_COVERAGE) / 2
  const low = Math.min(0, quantile(relative, tail))
  const high = Math.max(0, quantile(relative, 1 - tail))
  const firstForecastDate = addDays(firstDate, values.length)

  const at = (date: string): ForecastPoint => {
    const i = dayDiff(windowStart, date)
    const expected = fitted(i)
    const ahead = Math.max(0, i - last)
    // A farther day is less certain: the level and the slope err more the longer they are carried.
    const widen = Math.sqrt(1 + ahead / WIDEN_DAYS)
    const base = Math.max(expected, scale * 0.05)
    return {
      expected,
      lower: Math.max(0, expected + low * widen * base),
      upper: Math.max(0, expected + high * widen * base),
    }
  }

  const total = (from: string, to: string): ForecastPoint => {
    let expected = 0
    let lowSq = 0
    let highSq = 0
    let days = 0
    for (let d = from; d <= to; d = addDays(d, 1)) {
      const p = at(d)
      expected += p.expected
      lowSq += (p.expected - p.lower) ** 2
      highSq += (p.upper - p.expected) ** 2
      days++
    }
    // Days' errors are partly shared (a level the trend missed errs every day alike): half in step, half apart.
    const lowWidth = 0.5 * Math.sqrt(lowSq * days) + 0.5 * Math.sqrt(lowSq)
    const highWidth = 0.5 * Math.sqrt(highSq * days) + 0.5 * Math.sqrt(highSq)
    return { expected, lower: Math.max(0, expected - lowWidth), upper: expected + highWidth }
  }

  return {
    firstForecastDate,
    at,
    total,
    weeklyFactors: [0, 1, 2, 3, 4, 5, 6].map((weekday) => factors[weekday]!),
    level: level + slope,
    slope,
  }
}

export interface ForecastAccuracy {
  /** Mean absolute error over the backtest against that of the seasonal-naive forecast (same weekday a week before). */
  mase: number | null
  /** The share of backtest days whose actual cost fell within the 80% interval. */
  coverage80: number | null
  backtestDays: number
}

/**
 * The model's accuracy on the last `days` of `values`: fitted once on the history before them and forecast up to
 * 28 days ahead (the horizon a month-end forecast needs), scored against the seasonal-naive forecast of each day.
 * Null figures when the history before the backtest is shorter than MIN_FORECAST_HISTORY_DAYS.
 */
export function backtest(values: readonly number[], firstDate: string, days = BACKTEST_DAYS): ForecastAccuracy {
  const cut = values.length - days
  if (cut < MIN_FORECAST_HISTORY_DAYS) return { mase: null, coverage80: null, backtestDays: 0 }
  const model = fitForecast(values.slice(0, cut), firstDate)
  let modelError = 0
  let naiveError = 0
  let covered = 0
  for (let i = cut; i < values.length; i++) {
    const point = model.at(addDays(firstDate, i))
    const actual = values[i]!
    modelError += Math.abs(actual - point.expected)
    // Seasonal naive from the same origin: the same weekday in the last week before the cut.
    naiveError += Math.abs(actual - values[cut - 7 + ((i - cut) % 7)]!)
    if (actual >= point.lower && actual <= point.upper) covered++
  }
  return {
    mase: naiveError > 0 ? modelError / naiveError : modelError === 0 ? 0 : null,
    coverage80: covered / days,
    backtestDays: days,
  }
}

/**
 * Purchases, taxes and credits are not a trend: each recurs on its own day. A day of the month whose charges
 * (other than usage) were non-zero in at least two of the last three months up to `historyTo` recurs on that day
 * (the month's last day when shorter) of every month in [from, to], at its most recent amount; a one-off charge is
 * not projected; a charge on a month's last day recurs on each month's last day. `charges` holds the non-usage cost of each day with any.
 */
export function recurringCharges(
  charges: ReadonlyMap<string, number>,
  historyTo: string,
  from: string,
  to: string,
): Map<string, number> {
  const months = [0, 1, 2].map((back) => {
    const [year, month] = historyTo.split('-').map(Number) as [number, number]
    return new Date(Date.UTC(year, month - 1 - back, 1)).toISOString().slice(0, 7)
  })
  const seen = new Map<number, { count: number; latest: string; amount: number }>()
  for (const [date, cost] of charges) {
    if (cost === 0 || date > historyTo || !months.includes(date.slice(0, 7))) continue
    // A charge on a month's last day is a month-end charge (the 30th of September is October's 31st).
    const day = date === monthEndOf(date) ? 31 : Number(date.slice(8, 10))
    const entry = seen.get(day) ?? { count: 0, latest: '', amount: 0 }
    entry.count++
    if (date > entry.latest) {
      entry.latest = date
      entry.amount = cost
    }
    seen.set(day, entry)
  }
  const projected = new Map<string, number>()
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const day = Number(d.slice(8, 10))
    const isMonthEnd = d === monthEndOf(d)
    for (const [recurringDay, entry] of seen) {
      if (entry.count < 2) continue
      if (recurringDay === day || (isMonthEnd && recurringDay > day)) {
        projected.set(d, (projected.get(d) ?? 0) + entry.amount)
      }
    }
  }
  return projected
}
