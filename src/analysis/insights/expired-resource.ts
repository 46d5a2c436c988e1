import { findingOf, monthlyCost } from './money.js'
import type { InsightRule, ResourceFacts } from './types.js'

/** Tag keys that carry an end of life, compared without case, `-`, `_` or spaces. */
const EXPIRY_KEYS = new Set([
  'expiry',
  'expires',
  'expiration',
  'expirydate',
  'expirationdate',
  'expireson',
  'enddate',
  'deleteafter',
])

/** A day `YYYY-MM-DD` from a date or an RFC 3339 instant, or null. */
function dayOf(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const match = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(value.trim())
  if (!match || Number.isNaN(Date.parse(`${match[1]}T00:00:00Z`))) return null
  return match[1]!
}

function expiry(resource: ResourceFacts): { day: string; source: string } | null {
  for (const [key, value] of Object.entries(resource.tags)) {
    if (!EXPIRY_KEYS.has(key.toLowerCase().replace(/[-_\s]/g, ''))) continue
    const day = dayOf(value)
    if (day) return { day, source: `its ${key} tag` }
  }
  const certificate = dayOf(resource.properties.expirationDate)
  return certificate ? { day: certificate, source: 'its certificate' } : null
}

/**
 * ExpiredResource: a resource whose end of life has passed: an expiry tag (`expiry`, `expires`, `expiration`,
 * `expiry-date`, `expires-on`, `end-date`, `delete-after`, in any casing) or a certificate `expirationDate` before
 * today. Savings: all of its observed monthly cost (it was meant to be gone). Severity from the savings.
 */
export const expiredResource: InsightRule = (resource, context) => {
  const found = expiry(resource)
  if (!found || found.day >= context.today) return null
  return findingOf(
    'ExpiredResource',
    resource.currency,
    monthlyCost(resource.dailyCosts),
    (saving) => ({
      title: `${resource.name} expired on ${found.day}`,
      description: `${resource.name} expired on ${found.day} by ${found.source}, and costs about ${saving} a month.`,
      recommendation: 'Delete it, or renew it and update its expiry if it is still needed.',
    }),
    { keepWhenFree: true },
  )
}
