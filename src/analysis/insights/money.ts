import type { Finding, InsightCategory, InsightSeverity } from './types.js'

/** A month, for savings estimates: 30 days. */
export const DAYS_PER_MONTH = 30

export function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100
}

/** The resource's own observed cost of a month: its average daily cost over the days observed, times 30. */
export function monthlyCost(dailyCosts: readonly number[]): number {
  if (dailyCosts.length === 0) return 0
  const total = dailyCosts.reduce((sum, cost) => sum + cost, 0)
  return (total / dailyCosts.length) * DAYS_PER_MONTH
}

/**
 * Severity of every insight, from its monthly saving: Critical from 1,000, High from 250, Medium from 50, Low
 * below (in the resource's currency).
 */
export function severityOfSavings(monthlySavings: number): InsightSeverity {
  if (monthlySavings >= 1000) return 'Critical'
  if (monthlySavings >= 250) return 'High'
  if (monthlySavings >= 50) return 'Medium'
  return 'Low'
}

/** Formats an amount for a sentence: `USD 12.30`. */
export function money(amount: number, currency: string): string {
  return `${currency} ${amount.toFixed(2)}`
}

/**
 * A finding of `category` worth `monthlySavings` (rounded to the cent; severity from it), its words written with
 * the saving formatted; null when fixing it would save nothing, unless the condition matters even then.
 */
export function findingOf(
  category: InsightCategory,
  currency: string,
  monthlySavings: number,
  words: (saving: string) => Pick<Finding, 'title' | 'description' | 'recommendation'>,
  options: { keepWhenFree?: boolean } = {},
): Finding | null {
  const savings = roundCents(monthlySavings)
  if (savings <= 0 && !options.keepWhenFree) return null
  return {
    category,
    severity: severityOfSavings(savings),
    ...words(money(savings, currency)),
    estimatedMonthlySavings: savings,
  }
}
