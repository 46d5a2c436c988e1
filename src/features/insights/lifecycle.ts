import type { Finding } from '../../analysis/insights/types.js'
import type { ActorRef } from '../../platform/http/schemas.js'
import { DAY_MS } from '../../platform/time.js'
import type { InsightStatuses, RecommendationActionTypes } from './schemas.js'

export type InsightStatus = (typeof InsightStatuses)[number]
/** What a person may do to an insight; AutoResolved is the service's alone. */
export type PersonAction = Exclude<(typeof RecommendationActionTypes)[number], 'AutoResolved'>

/** The state of an insight row that status decisions depend on. */
export interface InsightState {
  status: InsightStatus
  snoozedUntil: string | null
  /** Whether the latest analysis still found the condition. */
  found: boolean
}

/**
 * The status as of `now`: a snooze that has passed is Active again. Applied on every read, so the answer is right
 * at any instant, whatever analyses have run since.
 */
export function currentStatus(state: Pick<InsightState, 'status' | 'snoozedUntil'>, now: string) {
  if (state.status === 'Snoozed' && state.snoozedUntil !== null && state.snoozedUntil <= now) {
    return { status: 'Active' as const, snoozedUntil: null }
  }
  return { status: state.status, snoozedUntil: state.snoozedUntil }
}

/** A person's verdict stays while the condition is gone: a dismissed insight that comes back stays dismissed. */
const VERDICTS: ReadonlySet<InsightStatus> = new Set(['NotRelevant', 'AcceptedRisk', 'FalsePositive'])

/**
 * An insight's state after an analysis that did (`found`) or did not find its condition:
 * - not found: an Active or Snoozed insight becomes AutoResolved; Implemented and the verdicts stay.
 * - found again after it was gone: AutoResolved and Implemented come back Active (the fix did not hold);
 *   `redetected` tells the caller to date it anew.
 * - found while it holds: a person's status stays (a snooze until it passes).
 */
export function afterAnalysis(
  state: InsightState,
  found: boolean,
  now: string,
): InsightState & { redetected: boolean } {
  const current = { ...currentStatus(state, now), found: state.found }
  if (!found) {
    if (!state.found) return { ...current, redetected: false }
    const resolved = current.status === 'Active' || current.status === 'Snoozed'
    return resolved
      ? { status: 'AutoResolved', snoozedUntil: null, found: false, redetected: false }
      : { ...current, found: false, redetected: false }
  }
  if (!state.found && !VERDICTS.has(current.status) && current.status !== 'Snoozed') {
    return { status: 'Active', snoozedUntil: null, found: true, redetected: true }
  }
  return { ...current, found: true, redetected: false }
}

/** The status and snooze a person's action sets. */
export function applyAction(action: PersonAction, snoozeDays: number | null, now: string) {
  return {
    status: action as InsightStatus,
    snoozedUntil: action === 'Snoozed' ? new Date(Date.parse(now) + snoozeDays! * DAY_MS).toISOString() : null,
  }
}

export interface LastAction {
  action: PersonAction
  at: string
  by: ActorRef
  snoozeDays: number | null
}

/** The fields of an insight a finding writes, refreshed by every analysis that finds it. */
export function findingFields(finding: Finding) {
  return {
    severity: finding.severity,
    title: finding.title,
    description: finding.description,
    recommendation: finding.recommendation,
    estimatedMonthlySavings: finding.estimatedMonthlySavings,
  }
}
