import { type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock } from '../../platform/clock.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import { roundMoney } from '../../platform/money.js'
import { addDays, dayBounds, dayCount, dayDiff, toDay } from '../../platform/time.js'

import type { CostReads } from '../costs/read/index.js'
import type { EventRecord, EventStore } from '../events/public.js'
import { type ChartTarget, isUniversal, isVisibleOn } from '../events/public.js'
import type { InventoryStore } from '../inventory/public.js'

import { CHART_SCOPE_ERROR, parseChartScope } from '../shared/chart-scope.js'
import { IMPACT_PERCENT_MIN_DAYS } from './constants.js'
import { MAX_OBSERVED_DAYS, monthlyDelta, observedWindows } from './observed.js'
import type {
  AnomalyDriver,
  AnomalyFeedbackCounts,
  AnomalyListQuery,
  AnomalyRecord,
  AnomalyStatus,
  EventCostImpact,
  PatchAnomalyRequest,
} from './schemas.js'
import type { AnomalyRow, AnomalyStore } from './store.js'

/** How far back from an anomaly's day a marker counts as related: a deploy shows in costs within days. */
export const RELATED_EVENT_DAYS = 3
/** The statuses a caller may set; Active is the service's alone. */
const SETTABLE: readonly AnomalyStatus[] = ['Acknowledged', 'Resolved']
const MAX_IMPACT_ANOMALIES = 100
const EVENT_BATCH = 1000

function actorOf(type: string | null, id: string | null, name: string | null): AnomalyRecord['statusChangedBy'] {
  return type === null ? null : { type: type as 'ApiKey' | 'User' | 'System', id, name }
}

/** The episode of a row; rows from before episodes were recorded are one-day episodes. */
function episodeOf(row: AnomalyRow): AnomalyRecord['episode'] {
  const lastDay = row.episodeEnd ?? row.dateRaised
  const expectedCost = row.episodeExpectedCost ?? row.expectedCost
  const totalImpact = row.totalImpact ?? row.impact
  return {
    start: row.dateRaised,
    end: row.ongoing ? null : lastDay,
    ongoing: row.ongoing === 1,
    lastDay,
    days: dayDiff(row.dateRaised, lastDay) + 1,
    expectedCost,
    actualCost: row.episodeActualCost ?? row.actualCost,
    totalImpact,
    totalImpactPercent:
      expectedCost === 0
        ? 100 * Math.sign(totalImpact)
        : Math.round((10000 * totalImpact) / Math.abs(expectedCost)) / 100,
    maxImpact: row.maxImpact ?? row.impact,
  }
}

export function toAnomalyRecord(row: AnomalyRow, relatedEvents: EventRecord[], incidentSize = 1): AnomalyRecord {
  const episode = episodeOf(row)
  const likelyCause =
    relatedEvents.filter((e) => e.category === 'Deployment' && e.occurredAt.slice(0, 10) <= episode.start).at(-1) ??
    null
  return {
    id: row.id,
    tenancyId: row.tenantId,
    scope: {
      kind: row.scopeKind as AnomalyRecord['scope']['kind'],
      subscriptionId: row.subscriptionId,
      resourceGroupName: row.resourceGroupName,
      resourceId: row.resourceId,
      serviceName: row.serviceName,
    },
    dateRaised: row.dateRaised,
    severity: row.severity as AnomalyRecord['severity'],
    status: row.status as AnomalyStatus,
    expectedCost: row.expectedCost,
    actualCost: row.actualCost,
    impact: row.impact,
    impactPercent: row.impactPercent,
    currency: row.currency,
    description: row.description,
    drivers: JSON.parse(row.drivers) as AnomalyDriver[],
    relatedEvents,
    detectedAt: row.detectedAt,
    statusChangedAt: row.statusChangedAt,
    statusChangedBy: actorOf(row.statusChangedByType, row.statusChangedById, row.statusChangedByName),
    episode,
    incidentId: row.incidentId ?? row.id,
    incidentSize,
    feedback: row.feedback as AnomalyRecord['feedback'],
    feedbackAt: row.feedbackAt,
    feedbackBy: actorOf(row.feedbackByType, row.feedbackById, row.feedbackByName),
    likelyCause,
  }
}

interface DayRange {
  from: string
  to: string
}

/** The days of `window` within `held` (both included), or null when they do not meet. */
export function heldPart(window: DayRange, held: DayRange | null): DayRange | null {
  if (!held) return null
  const from = window.from > held.from ? window.from : held.from
  const to = window.to < held.to ? window.to : held.to
  return from <= to ? { from, to } : null
}

/**
 * Marker impact, like with like: each side's daily average over the days it holds, the change over `days` days at
 * those averages, and a percentage only once the after side holds IMPACT_PERCENT_MIN_DAYS days.
 */
export function compareAverages(
  days: number,
  before: { cost: number; days: number },
  after: { cost: number; days: number },
): {
  beforeAverage: number | null
  afterAverage: number | null
  dailyChange: number | null
  change: number
  changePercent: number | null
} {
  const beforeAverage = before.days > 0 ? before.cost / before.days : null
  const afterAverage = after.days > 0 ? after.cost / after.days : null
  if (beforeAverage === null || afterAverage === null) {
    return { beforeAverage, afterAverage, dailyChange: null, change: 0, changePercent: null }
  }
  const dailyChange = afterAverage - beforeAverage
  const changePercent =
    after.days >= IMPACT_PERCENT_MIN_DAYS && beforeAverage !== 0
      ? Math.round((10000 * dailyChange) / beforeAverage) / 100
      : null
  return { beforeAverage, afterAverage, dailyChange, change: dailyChange * days, changePercent }
}

export function createAnomalyService(deps: {
  store: AnomalyStore
  costs: Pick<CostReads, 'costBetween' | 'observedWindow' | 'settledThrough' | 'billingCurrency'>
  events: Pick<EventStore, 'range' | 'get'>
  inventory: Pick<InventoryStore, 'resourceTags' | 'resourceGroupsNamed' | 'resourcesByKey'>
  clock: Clock
  /** Queues an analysis of the tenant's days from `from` to its newest cost day (feedback Expected re-judges). */
  requestAnalysis(tenantId: string, from: string): Promise<void>
}) {
  const { store } = deps

  /** The markers of `tenantId` from `from` to `to` (instants), oldest first, read in batches. */
  async function markersBetween(tenantId: string, from: string, to: string): Promise<EventRecord[]> {
    const all: EventRecord[] = []
    let after: EventRecord | undefined
    for (;;) {
      const batch = await deps.events.range(tenantId, from, to, EVENT_BATCH, after)
      all.push(...batch)
      after = batch.at(-1)
      if (batch.length < EVENT_BATCH) return all
    }
  }

  /** The chart an anomaly's scope is drawn on, for marker visibility: service charts span the tenant (broad). */
  async function targetOf(row: AnomalyRow): Promise<ChartTarget> {
    if (row.scopeKind === 'Resource') {
      const tags = row.resourceId ? await deps.inventory.resourceTags(row.tenantId, row.resourceId) : null
      return { kind: 'single', tags: tags ?? {} }
    }
    if (row.scopeKind === 'ResourceGroup') {
      const [group] = await deps.inventory.resourceGroupsNamed(
        row.tenantId,
        row.resourceGroupName!,
        row.subscriptionId ?? undefined,
      )
      return { kind: 'single', tags: group?.tags ?? {} }
    }
    return { kind: 'broad' }
  }

  /** Records of rows with their related markers: one marker read per tenant of the page, one tag read per scope. */
  async function recordsOf(rows: readonly AnomalyRow[]): Promise<AnomalyRecord[]> {
    const byTenant = new Map<string, AnomalyRow[]>()
    for (const r of rows) byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), r])
    const related = new Map<string, EventRecord[]>()
    for (const [tenantId, group] of byTenant) {
      const days = group.map((r) => r.dateRaised).sort()
      const markers = await markersBetween(
        tenantId,
        dayBounds(addDays(days[0]!, -RELATED_EVENT_DAYS)).start,
        dayBounds(days.at(-1)!).end,
      )
      const targets = new Map<string, Promise<ChartTarget>>()
      for (const row of group) {
        const from = dayBounds(addDays(row.dateRaised, -RELATED_EVENT_DAYS)).start
        const to = dayBounds(row.dateRaised).end
        const inWindow = markers.filter((m) => m.occurredAt >= from && m.occurredAt <= to)
        if (inWindow.every(isUniversal)) {
          related.set(row.id, inWindow)
          continue
        }
        let target = targets.get(row.scopeKey)
        if (!target) {
          target = targetOf(row)
          targets.set(row.scopeKey, target)
        }
        const chart = await target
        related.set(
          row.id,
          inWindow.filter((m) => isVisibleOn(m, chart)),
        )
      }
    }
    const sizes = new Map<string, number>()
    for (const [tenantId, group] of byTenant) {
      const found = await store.incidentSizes(
        tenantId,
        group.map((r) => r.incidentId ?? r.id),
      )
      for (const [id, n] of found) sizes.set(id, n)
    }
    return rows.map((r) => toAnomalyRecord(r, related.get(r.id) ?? [], sizes.get(r.incidentId ?? r.id) ?? 1))
  }

  async function getRow(id: string): Promise<AnomalyRow> {
    const row = await store.get(id)
    if (!row) throw ApiError.notFound(`Anomaly ${id}`)
    return row
  }

  /** The resources a tagged marker is on (lower-cased keys); null for a universal marker: the whole tenant. */
  async function markerResources(tenantId: string, marker: EventRecord): Promise<string[] | null> {
    if (isUniversal(marker)) return null
    const resources = await deps.inventory.resourcesByKey(tenantId)
    return [...resources.entries()]
      .filter(([, r]) => isVisibleOn(marker, { kind: 'single', tags: r.tags }))
      .map(([key]) => key)
  }

  /**
   * The change in monthly cost on the marker's scope, like with like (see observedWindows): the settled days after
   * the marker's day against as many before it with the same weekdays, as a monthly rate (x DAYS_PER_MONTH).
   * `monthlyDelta` is null while no settled day follows the marker's day.
   */
  async function observedOf(
    marker: EventRecord,
  ): Promise<{ monthlyDelta: number | null; days: number; currency: string }> {
    const tenantId = marker.tenantId
    const day = marker.occurredAt.slice(0, 10)
    const today = toDay(deps.clock.now())
    const reach = dayDiff(addDays(day, -(MAX_OBSERVED_DAYS + 7)), today) + 1
    const [held, settled] = await Promise.all([
      deps.costs.observedWindow(tenantId, today, Math.max(1, reach)),
      deps.costs.settledThrough(tenantId),
    ])
    const none = async () => ({ monthlyDelta: null, days: 0, currency: await deps.costs.billingCurrency(tenantId) })
    if (!held || settled === null) return none()
    const windows = observedWindows(day, settled < held.to ? settled : held.to, held.from)
    if (!windows) return none()
    const keys = await markerResources(tenantId, marker)
    const [before, after] = await Promise.all([
      deps.costs.costBetween(tenantId, keys, windows.before.from, windows.before.to),
      deps.costs.costBetween(tenantId, keys, windows.after.from, windows.after.to),
    ])
    return {
      monthlyDelta: monthlyDelta(before.cost, after.cost, windows.days),
      days: windows.days,
      currency: after.currency,
    }
  }

  return {
    /** The tenancy owning an anomaly, for the route's permission check. */
    tenancyOf: (id: string) => store.tenancyOf(id),

    async list(who: Principal, query: AnomalyListQuery, paging: Paging): Promise<PageOf<AnomalyRecord>> {
      const { severity, status, dateRaised, from, to, tenancyId, subscriptionId } = query
      const errors: FieldErrors = {}
      if (from !== undefined && to !== undefined && from > to) errors.from = ['must not be after to']
      const scope = query.scope === undefined ? undefined : parseChartScope(query.scope)
      if (scope === null) errors.scope = [CHART_SCOPE_ERROR]
      if (Object.keys(errors).length > 0) throw ApiError.invalid(errors)
      const { rows, totalCount } = await store.list(
        who.organisationId,
        visibleTenancies(who),
        {
          severity,
          status,
          dateRaised,
          from,
          to,
          tenancyId: tenancyId?.toLowerCase(),
          scope: scope ?? undefined,
          subscriptionId: subscriptionId || undefined,
          incidentId: query.incidentId?.toLowerCase(),
          headsOnly: query.view === 'incidents',
          overlapping: query.range === 'active',
        },
        paging,
      )
      return pageOf(await recordsOf(rows), totalCount, paging)
    },

    /**
     * The records (related markers, likely cause, incident size) of the anomalies of these tenancies an analysis
     * wrote from `from` on (and before `before`): what the alert rules evaluate.
     */
    async written(tenancyIds: readonly string[], from: string, before: string | null = null): Promise<AnomalyRecord[]> {
      return recordsOf(await store.writtenBetween(tenancyIds, from, before))
    },

    /** The records of the anomalies of these tenancies raised from `from` to `to` (days): a rule's preview. */
    async raisedIn(tenancyIds: readonly string[], from: string, to: string): Promise<AnomalyRecord[]> {
      return recordsOf(await store.raisedIn(tenancyIds, from, to))
    },

    async get(id: string): Promise<AnomalyRecord> {
      const [record] = await recordsOf([await getRow(id)])
      return record!
    },

    /**
     * Acknowledged or Resolved from any status; the current status again is a 200 that changes nothing; Active
     * (or anything else) is a 400: only detection raises an anomaly.
     */
    async setStatus(who: Principal, id: string, patch: PatchAnomalyRequest): Promise<AnomalyRecord> {
      if (patch.status !== undefined && !SETTABLE.includes(patch.status)) {
        throw ApiError.invalid({ status: ['must be Acknowledged or Resolved; Active is set only by the service'] })
      }
      const at = deps.clock.now().toISOString()
      const before = await getRow(id)
      if (patch.status !== undefined) await store.setStatus(id, patch.status, who.actor, at)
      if (patch.feedback !== undefined) await store.setFeedback(id, patch.feedback, who.actor, at)
      // Expected adopts the episode's new level: given or taken back, the scope is judged again from its start.
      const expectedChanged =
        patch.feedback !== undefined &&
        patch.feedback !== before.feedback &&
        (patch.feedback === 'Expected' || before.feedback === 'Expected')
      if (expectedChanged) await deps.requestAnalysis(before.tenantId, before.dateRaised)
      const [record] = await recordsOf([await getRow(id)])
      return record!
    },

    /** How many of the tenant's anomalies carry each feedback. */
    async feedbackCounts(tenantId: string): Promise<AnomalyFeedbackCounts> {
      return { tenantId, ...(await store.feedbackCounts(tenantId)) }
    },

    /**
     * Cost on the marker's chart scope in the `days` whole days before the marker's day and the `days` days from
     * its day on, and the anomalies on that scope over both windows. The change compares daily averages over the
     * days each side holds: from the tenant's first day of cost to its last settled one (before today, and no
     * later than every source of the tenant has settled).
     */
    async impact(tenantId: string, eventId: string, days: number): Promise<EventCostImpact> {
      const marker = await deps.events.get(tenantId, eventId)
      if (!marker) throw ApiError.notFound(`Event ${eventId}`)
      const observedChange = observedOf(marker)
      const day = marker.occurredAt.slice(0, 10)
      const today = toDay(deps.clock.now())
      const before = { from: addDays(day, -days), to: addDays(day, -1) }
      const after = { from: day, to: addDays(day, days - 1) }
      let resourceKeys: string[] | null = null
      if (!isUniversal(marker)) {
        const resources = await deps.inventory.resourcesByKey(tenantId)
        resourceKeys = [...resources.entries()]
          .filter(([, r]) => isVisibleOn(marker, { kind: 'single', tags: r.tags }))
          .map(([key]) => key)
      }
      // The days with costs before today, reaching back to the before window's first day, up to the last day
      // every source of the tenant has settled (later ones are still restated).
      const [observed, settled] = await Promise.all([
        deps.costs.observedWindow(tenantId, today, Math.max(1, dayDiff(before.from, today) + 1)),
        deps.costs.settledThrough(tenantId),
      ])
      const held = observed && settled !== null ? heldPart(observed, { from: observed.from, to: settled }) : observed
      const heldBefore = heldPart(before, held)
      const heldAfter = heldPart(after, held)
      const costOf = async (range: DayRange | null) =>
        range ? roundMoney((await deps.costs.costBetween(tenantId, resourceKeys, range.from, range.to)).cost) : 0
      const [costBefore, costAfter, settledBefore, settledAfter, anomalies] = await Promise.all([
        deps.costs.costBetween(tenantId, resourceKeys, before.from, before.to),
        deps.costs.costBetween(tenantId, resourceKeys, after.from, after.to),
        costOf(heldBefore),
        costOf(heldAfter),
        store.raisedBetween(
          tenantId,
          before.from,
          after.to,
          resourceKeys === null ? null : resourceKeys.map((k) => `resource:${k}`),
          MAX_IMPACT_ANOMALIES,
        ),
      ])
      const daysBefore = heldBefore ? dayCount(heldBefore.from, heldBefore.to) : 0
      const daysAfter = heldAfter ? dayCount(heldAfter.from, heldAfter.to) : 0
      const compared = compareAverages(
        days,
        { cost: settledBefore, days: daysBefore },
        { cost: settledAfter, days: daysAfter },
      )
      const money = (v: number | null) => (v === null ? null : roundMoney(v))
      return {
        eventId: marker.id,
        tenantId,
        scope: isUniversal(marker) ? 'tenant' : `tag:${marker.tagKey}=${marker.tagValue}`,
        days,
        currency: costBefore.currency,
        before: { ...before, cost: roundMoney(costBefore.cost), dailyAverage: money(compared.beforeAverage) },
        after: { ...after, cost: roundMoney(costAfter.cost), dailyAverage: money(compared.afterAverage) },
        daysBefore,
        daysAfter,
        dailyChange: money(compared.dailyChange),
        change: roundMoney(compared.change),
        changePercent: compared.changePercent,
        complete: after.to < today,
        anomalies: await recordsOf(anomalies),
        predicted: marker.prediction
          ? { monthlyDelta: marker.prediction.monthlyDelta, currency: marker.prediction.currency }
          : null,
        observed: await observedChange.then(({ monthlyDelta, days }) => ({ monthlyDelta, days })),
      }
    },

    /** The observed change in monthly cost on the marker's scope (see observed): what a prediction is checked against. */
    observedChange: (marker: EventRecord) => observedOf(marker),
  }
}
export type AnomalyService = ReturnType<typeof createAnomalyService>
