/**
 * What anomaly detection knows of a tenant's costs beyond their values: which days are settled (only those are
 * judged) and which resources were removed (their end is no drop, on their own scope or any above it).
 */
import type { JudgeOptions } from '../../analysis/anomalies/detect.js'
import { addDays, dayDiff } from '../../platform/time.js'

import { FOCUS_SOURCE } from '../costs/public.js'
import type { CostCoverage, StoppedResource } from '../costs/read/index.js'

import type { ScopeLevel } from './store.js'

/** What the analyser reads to know settled days and removals (wired in services.ts). */
export interface SettlingReads {
  /** What each source of the tenant's costs covered and settled (the cost read path). */
  costCoverage(tenantId: string): Promise<CostCoverage>
  /** Resources whose cost rows stop within [from, before) (the cost read path). */
  stoppedResources(tenantId: string, from: string, before: string): Promise<StoppedResource[]>
  /** Resources the tenant's latest inventory collection did not see; null when it never had one. */
  deletedResources(tenantId: string): Promise<ReadonlySet<string> | null>
}

/**
 * Settled days judged again by each run: days that were preliminary when earlier runs judged their range (a
 * collection's newest ones) are judged once they settle, by whichever later run comes.
 */
export const REJUDGED_DAYS = 14

export interface Settling {
  /** The last day judged; null when no source recorded its coverage (every day counts as settled). */
  settledThrough: string | null
  /** Per level and scope key, the days a removal starts on (each removed resource's last day with cost). */
  removals: Map<ScopeLevel, Map<string, string[]>>
}

const NOTHING_KNOWN: Settling = { settledThrough: null, removals: new Map() }

/**
 * The first day a run judges: its range's, or earlier, so that days that settled since the runs before it (a
 * collection's newest days were preliminary when it was analysed) are judged now. Days after the last settled one
 * stay in the range: what an earlier run raised on them is withdrawn.
 */
export function judgedFrom(from: string, settledThrough: string | null): string {
  if (settledThrough === null) return from
  const rejudged = addDays(settledThrough, -(REJUDGED_DAYS - 1))
  return rejudged < from ? rejudged : from
}

/**
 * A resource whose cost rows stop for good before the last settled day was removed when the inventory's latest
 * collection no longer lists it, or, for costs from FOCUS files (which tell nothing of deletions), when an active
 * FOCUS import covers later days without it. A resource that stops while still listed (every meter stopped) is an
 * outage, which is judged.
 */
export function removalsOf(
  stopped: readonly StoppedResource[],
  deleted: ReadonlySet<string> | null,
  coverage: CostCoverage,
): Settling['removals'] {
  const removals: Settling['removals'] = new Map()
  const add = (level: ScopeLevel, key: string, day: string) => {
    const byKey = removals.get(level) ?? new Map<string, string[]>()
    removals.set(level, byKey)
    const days = byKey.get(key) ?? []
    if (!days.includes(day)) days.push(day)
    byKey.set(key, days)
  }
  for (const r of stoppedAndRemoved(stopped, deleted, coverage).keys()) {
    add('resource', r.resourceKey, r.lastDate)
    add('resourceGroup', r.groupKey, r.lastDate)
    add('subscription', r.subscriptionId, r.lastDate)
    add('tenant', '', r.lastDate)
    for (const service of r.services) add('service', service, r.lastDate)
  }
  return removals
}

/** Why a resource counts as removed: the latest collection no longer lists it, or later imports bill it no more. */
export type RemovalBasis = 'NotInLatestCollection' | 'NotInLaterImports'

/** The stopped resources that were removed (see removalsOf), with why. */
function stoppedAndRemoved(
  stopped: readonly StoppedResource[],
  deleted: ReadonlySet<string> | null,
  coverage: CostCoverage,
): Map<StoppedResource, RemovalBasis> {
  const focus = coverage.sources.find((s) => s.source === FOCUS_SOURCE && s.active)
  const removed = new Map<StoppedResource, RemovalBasis>()
  for (const r of stopped) {
    if (deleted?.has(r.resourceKey)) removed.set(r, 'NotInLatestCollection')
    else if (focus !== undefined && focus.coveredTo > r.lastDate) removed.set(r, 'NotInLaterImports')
  }
  return removed
}

/** A removed resource as information: its last day with cost, and why it counts as removed. */
export interface ResourceRemoval {
  lastCostDate: string
  basis: RemovalBasis
}

/**
 * The tenant's removed resources by lower-cased ARM id, by the rule detection adopts them by (removalsOf), over
 * the whole history: what the resource records show in place of a drop anomaly. Without reads nothing is known.
 */
export async function resourceRemovals(
  reads: SettlingReads | undefined,
  tenantId: string,
  today: string,
): Promise<Map<string, ResourceRemoval>> {
  const removals = new Map<string, ResourceRemoval>()
  if (!reads) return removals
  const coverage = await reads.costCoverage(tenantId)
  const [stopped, deleted] = await Promise.all([
    reads.stoppedResources(tenantId, '0000-01-01', coverage.settledThrough ?? today),
    reads.deletedResources(tenantId),
  ])
  for (const [r, basis] of stoppedAndRemoved(stopped, deleted, coverage))
    removals.set(r.resourceKey, { lastCostDate: r.lastDate, basis })
  return removals
}

/**
 * Reads what the analyser needs to judge settled days only and to adopt removals (nothing is known without reads):
 * the first day to judge (see judgedFrom) and, with `history` days read before it, the removals in what is read.
 */
export async function settlingOf(
  reads: SettlingReads | undefined,
  tenantId: string,
  range: { from: string; to: string },
  history: number,
): Promise<{ from: string; settling: Settling }> {
  if (!reads) return { from: range.from, settling: NOTHING_KNOWN }
  const coverage = await reads.costCoverage(tenantId)
  const from = judgedFrom(range.from, coverage.settledThrough)
  const through =
    coverage.settledThrough !== null && coverage.settledThrough < range.to ? coverage.settledThrough : range.to
  const [stopped, deleted] = await Promise.all([
    reads.stoppedResources(tenantId, addDays(from, -history), through),
    reads.deletedResources(tenantId),
  ])
  return {
    from,
    settling: { settledThrough: coverage.settledThrough, removals: removalsOf(stopped, deleted, coverage) },
  }
}

/** The judgeSeries options of one scope whose series starts on `firstDay`: its last judged day and removals. */
export function settledOptions(
  settling: Settling,
  level: ScopeLevel,
  key: string,
  firstDay: string,
): Pick<JudgeOptions, 'judgeThrough' | 'adoptAt'> {
  const days = settling.removals.get(level)?.get(key)
  return {
    ...(settling.settledThrough !== null ? { judgeThrough: dayDiff(firstDay, settling.settledThrough) } : {}),
    ...(days ? { adoptAt: new Set(days.map((d) => dayDiff(firstDay, d))) } : {}),
  }
}

/**
 * Whether an episode of a scope is a removal's: a drop starting on a day a resource of the scope was removed, or
 * the day after (its last day may be billed in part). Never written as an anomaly.
 */
export function isRemoval(
  settling: Settling,
  level: ScopeLevel,
  key: string,
  day: string,
  episode: { impact: number },
): boolean {
  if (episode.impact >= 0) return false
  const days = settling.removals.get(level)?.get(key)
  return days?.some((d) => d === day || addDays(d, 1) === day) ?? false
}
