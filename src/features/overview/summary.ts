/**
 * The overview's arithmetic, pure: windows of days, the month-end interval of several tenancies, and this week's
 * movers ranked.
 */
import { roundMoney } from '../../platform/money.js'
import { addDays, dayCount, monthStart, previousMonthStart } from '../../platform/time.js'

export interface DayWindow {
  from: string
  to: string
  days: number
}

/**
 * Month to date (the first of the month through today) and the same number of days from the first of last month,
 * cut at last month's end when it is shorter (the 31st of March is compared with all of February).
 */
export function monthToDateWindows(today: string): { current: DayWindow; previous: DayWindow } {
  const from = monthStart(today)
  const days = dayCount(from, today)
  const previousFrom = previousMonthStart(today)
  const previousEnd = addDays(from, -1)
  const sameDay = addDays(previousFrom, days - 1)
  const previousTo = sameDay < previousEnd ? sameDay : previousEnd
  return {
    current: { from, to: today, days },
    previous: { from: previousFrom, to: previousTo, days: dayCount(previousFrom, previousTo) },
  }
}

/** The last settled day: the day before today when the sources settled today or later, or said nothing. */
export function lastSettledDay(today: string, settledThrough: string | null): string {
  return settledThrough !== null && settledThrough < today ? settledThrough : addDays(today, -1)
}

/** This week (the 7 days through the last settled day) and the 7 days before it. */
export function weekWindows(lastSettled: string) {
  return {
    current: { from: addDays(lastSettled, -6), to: lastSettled },
    previous: { from: addDays(lastSettled, -13), to: addDays(lastSettled, -7) },
  }
}

/** A change in percent of `before`, to one decimal; null when there was nothing before. */
export function changePercent(now: number, before: number): number | null {
  if (before === 0) return null
  return Math.round(((now - before) / Math.abs(before)) * 1000) / 10
}

export interface Interval {
  expected: number
  lower: number
  upper: number
}

/**
 * The sum of several tenancies' month-end forecasts. The expected values add up. The intervals do not: adding the
 * bounds would assume every tenancy misses its forecast the same way at once, which independent estates rarely do,
 * and gives an interval far wider than 80%. Each tenancy's distance to its bound is treated as the spread of an
 * independent error, and spreads of independent errors add in quadrature (the square root of the sum of squares),
 * on each side apart, since a forecast's interval need not be symmetric. One tenancy keeps its own interval.
 */
export function combineIntervals(parts: readonly Interval[]): Interval | null {
  if (parts.length === 0) return null
  const expected = parts.reduce((sum, p) => sum + p.expected, 0)
  const below = Math.sqrt(parts.reduce((sum, p) => sum + Math.max(0, p.expected - p.lower) ** 2, 0))
  const above = Math.sqrt(parts.reduce((sum, p) => sum + Math.max(0, p.upper - p.expected) ** 2, 0))
  return { expected: roundMoney(expected), lower: roundMoney(expected - below), upper: roundMoney(expected + above) }
}

export interface RateChange<T> {
  item: T
  currency: string
  /** Money per day, this week's rate less the week before's. */
  change: number
  /** A stable tie-break: the tenancy and the scope's key. */
  order: string
}

/** The `n` largest changes of a currency's rates (either way), largest first; no change is no mover. */
export function topMovers<T>(changes: readonly RateChange<T>[], n: number): RateChange<T>[] {
  return changes
    .filter((c) => Math.abs(roundMoney(c.change)) > 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .slice(0, n)
}
