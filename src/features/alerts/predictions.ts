import type { EventRecord } from '../events/public.js'
import type { RuleScope, RuleTrigger } from './schemas.js'

/** A prediction is judged only once this many settled days follow its marker: a few days say little of a month. */
export const MIN_OBSERVED_DAYS = 7
/** Markers this far back are still watched: the observed change covers at most 28 days after them. */
export const PREDICTION_WATCH_DAYS = 45

export interface ObservedChange {
  monthlyDelta: number | null
  days: number
  currency: string
}

export interface Excess {
  predicted: number
  observed: number
  excess: number
  /** Of the predicted change (absolute); null when nothing was predicted (any excess is infinitely more). */
  excessPercent: number | null
  days: number
  currency: string
}

/**
 * Whether a rule's scope takes a marker: a rule scoped to a resource group or a service never (a marker names
 * neither); with tag filters, only a marker tagged with each of them (key without letter case, value exact).
 */
export function scopeTakesMarker(scope: RuleScope, marker: EventRecord): boolean {
  if (scope.resourceGroup || scope.service) return false
  const tags = scope.tags ?? []
  if (tags.length === 0) return true
  if (marker.tagKey === null) return false
  return tags.every((t) => t.key.toLowerCase() === marker.tagKey!.toLowerCase() && t.value === marker.tagValue)
}

/**
 * The excess of the observed change over the marker's prediction when a PredictionExceeded trigger fires on it:
 * at least MIN_OBSERVED_DAYS settled days, the same currency, observed above predicted, and every threshold the
 * trigger sets (minExcess per month, minExcessPercent of the prediction) met. Null otherwise.
 */
export function predictionExcess(trigger: RuleTrigger, marker: EventRecord, observed: ObservedChange): Excess | null {
  const p = marker.prediction
  if (!p || observed.monthlyDelta === null || observed.days < MIN_OBSERVED_DAYS) return null
  // Amounts in two currencies are not compared without a rate.
  if (p.currency !== observed.currency) return null
  const excess = Math.round((observed.monthlyDelta - p.monthlyDelta) * 100) / 100
  if (excess <= 0) return null
  const excessPercent = p.monthlyDelta === 0 ? null : Math.round((10000 * excess) / Math.abs(p.monthlyDelta)) / 100
  if (trigger.minExcess != null && excess < trigger.minExcess) return null
  if (trigger.minExcessPercent != null && excessPercent !== null && excessPercent < trigger.minExcessPercent)
    return null
  return {
    predicted: p.monthlyDelta,
    observed: observed.monthlyDelta,
    excess,
    excessPercent,
    days: observed.days,
    currency: p.currency,
  }
}
