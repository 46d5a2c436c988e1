import { isNonProduction, isRunningVm } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule } from './types.js'

/** Office hours: 12 hours on 5 weekdays, of the week's 168. */
export const OFFICE_HOURS_SHARE = 60 / 168
const MIN_DAYS = 14

/**
 * ScheduleOpportunity: a running virtual machine tagged as not production (`environment` or `env`: dev, test,
 * qa, uat, staging, sandbox, nonprod) that runs nights and weekends: at least 14 days of costs, every one of them
 * billed, and weekend days costing at least 80% of weekdays (a machine already stopped at weekends is not one).
 * Savings: running only 12 hours on weekdays costs 60/168 of running always, so the observed monthly cost times
 * 108/168. Severity from the savings.
 */
export const scheduleOpportunity: InsightRule = (resource) => {
  if (!isRunningVm(resource) || !isNonProduction(resource)) return null
  const days = resource.dailyCosts
  if (days.length < MIN_DAYS || days.some((cost) => cost <= 0)) return null
  let weekend = 0
  let weekendDays = 0
  let weekday = 0
  let weekdayDays = 0
  days.forEach((cost, i) => {
    const dow = (resource.firstWeekday + i) % 7
    if (dow === 0 || dow === 6) {
      weekend += cost
      weekendDays++
    } else {
      weekday += cost
      weekdayDays++
    }
  })
  if (weekendDays === 0 || weekdayDays === 0 || weekend / weekendDays < 0.8 * (weekday / weekdayDays)) return null
  return findingOf(
    'ScheduleOpportunity',
    resource.currency,
    monthlyCost(days) * (1 - OFFICE_HOURS_SHARE),
    (saving) => ({
      title: `${resource.name} runs nights and weekends`,
      description: `${resource.name} is not production but runs around the clock, weekends included.`,
      recommendation: `Stop it outside office hours (auto-shutdown or a start/stop schedule), saving about ${saving} a month.`,
    }),
  )
}
