import type { FieldErrors } from '../../platform/http/errors.js'
import { addDays, dayCount, monthStart, previousMonthStart } from '../../platform/time.js'
import type { Period } from './kinds/types.js'

export const PERIODS = ['MonthToDate', 'LastMonth', 'Last30Days', 'Last90Days', 'Custom'] as const
export type PeriodName = (typeof PERIODS)[number]

/** A custom range may span at most this many days (a little over two years). */
export const MAX_CUSTOM_DAYS = 800

const DAY = /^\d{4}-\d{2}-\d{2}$/
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `2026-03-01` as `1 Mar 2026`. */
export function readableDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number)
  return `${d} ${MONTHS[m! - 1]} ${y}`
}

export interface PeriodParameters {
  period: PeriodName
  from?: string
  to?: string
}

/** Checks `period` with its `from`/`to` (only and always with Custom), adding errors to `errors`. */
export function checkPeriod(raw: Record<string, unknown>, errors: FieldErrors): PeriodParameters {
  const period = raw.period ?? 'MonthToDate'
  if (!PERIODS.includes(period as PeriodName)) {
    errors['parameters.period'] = [`must be one of: ${PERIODS.join(', ')}`]
    return { period: 'MonthToDate' }
  }
  if (period !== 'Custom') {
    for (const field of ['from', 'to'])
      if (raw[field] !== undefined) errors[`parameters.${field}`] = ['is only allowed with period Custom']
    return { period: period as PeriodName }
  }
  const valid = (field: 'from' | 'to') => {
    const value = raw[field]
    if (typeof value !== 'string' || !DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      errors[`parameters.${field}`] = ['must be a date (YYYY-MM-DD) with period Custom']
      return undefined
    }
    return value
  }
  const from = valid('from')
  const to = valid('to')
  if (from && to) {
    if (from > to) errors['parameters.from'] = ['must not be after to']
    else if (dayCount(from, to) > MAX_CUSTOM_DAYS)
      errors['parameters.to'] = [`must be at most ${MAX_CUSTOM_DAYS} days after from`]
  }
  return { period: 'Custom', from, to }
}

/** The days a period covers as of `today` (a UTC day). */
export function resolvePeriod(p: PeriodParameters, today: string): Period {
  switch (p.period) {
    case 'MonthToDate':
      return { from: monthStart(today), to: today, label: 'Month to date' }
    case 'LastMonth': {
      const from = previousMonthStart(today)
      return { from, to: addDays(monthStart(today), -1), label: 'Last month' }
    }
    case 'Last30Days':
      return { from: addDays(today, -29), to: today, label: 'Last 30 days' }
    case 'Last90Days':
      return { from: addDays(today, -89), to: today, label: 'Last 90 days' }
    case 'Custom':
      return { from: p.from!, to: p.to!, label: 'Custom range' }
  }
}
