import { addDays, dayCount } from '../../platform/time.js'

/** A month of the observed rate: the mean Gregorian month (365.25 / 12 days), so every month weighs the same. */
export const DAYS_PER_MONTH = 30.4375
/** At most this many settled days after a marker are observed: four whole weeks, before other changes blur it. */
export const MAX_OBSERVED_DAYS = 28

export interface ObservedWindows {
  before: { from: string; to: string }
  after: { from: string; to: string }
  days: number
}

/**
 * The windows a marker's observed change compares, like with like: the settled days after the marker's day (the
 * day itself is half before, half after, so neither side has it), at most MAX_OBSERVED_DAYS, against as many days
 * before it that hold each weekday as often: the days just before the marker when the count is whole weeks, else
 * the after window moved back by whole weeks. Null when no settled day follows the marker's day, or the tenant's
 * costs do not reach back far enough for even one day.
 */
export function observedWindows(
  markerDay: string,
  settledThrough: string,
  firstCostDay: string,
): ObservedWindows | null {
  const from = addDays(markerDay, 1)
  if (settledThrough < from) return null
  for (let days = Math.min(MAX_OBSERVED_DAYS, dayCount(from, settledThrough)); days > 0; days--) {
    const shift = days % 7 === 0 ? days + 1 : 7 * Math.ceil((days + 1) / 7)
    const after = { from, to: addDays(from, days - 1) }
    const before = { from: addDays(after.from, -shift), to: addDays(after.to, -shift) }
    if (before.from >= firstCostDay) return { before, after, days }
  }
  return null
}

/** The change in monthly cost between two windows of `days` days: the difference of daily rates, per month. */
export function monthlyDelta(costBefore: number, costAfter: number, days: number): number {
  const rate = ((costAfter - costBefore) / days) * DAYS_PER_MONTH
  // Half a cent away from zero either way, so a saving reads as the rise of the same size would.
  return (Math.sign(rate) * Math.round(Math.abs(rate) * 100)) / 100
}
