import { isNonProduction, isRunningVm } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule } from './types.js'

/** A one-year reservation's price below pay-as-you-go for general-purpose sizes: about 40%. */
export const RESERVATION_SAVING = 0.4
const STEADY_DAYS = 30
/** Largest coefficient of variation of the daily cost that is still steady. */
const STEADY_VARIATION = 0.1

/**
 * ReservedInstanceOpportunity: a running virtual machine, not tagged as non-production, billed on each of the
 * last 30 days with a steady daily cost (coefficient of variation at most 10%): it runs 24x7 and will go on doing
 * so. Savings: a one-year reservation, 40% of the observed monthly cost. Severity from the savings.
 */
export const reservedInstanceOpportunity: InsightRule = (resource) => {
  if (!isRunningVm(resource) || isNonProduction(resource)) return null
  const days = resource.dailyCosts.slice(-STEADY_DAYS)
  if (days.length < STEADY_DAYS || days.some((cost) => cost <= 0)) return null
  const mean = days.reduce((s, c) => s + c, 0) / days.length
  const variance = days.reduce((s, c) => s + (c - mean) ** 2, 0) / days.length
  if (Math.sqrt(variance) / mean > STEADY_VARIATION) return null
  return findingOf(
    'ReservedInstanceOpportunity',
    resource.currency,
    monthlyCost(days) * RESERVATION_SAVING,
    (saving) => ({
      title: `${resource.name} runs steadily: reserve it`,
      description: `${resource.name} has run every hour of the last ${STEADY_DAYS} days at a steady cost.`,
      recommendation: `Buy a one-year reservation for its size (${String(resource.properties.vmSize ?? resource.sku ?? 'its size')}), saving about ${saving} a month.`,
    }),
  )
}
