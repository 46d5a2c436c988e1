import type { Analyser } from '../../analysis/analyser.js'
import {
  type DetectedAnomaly,
  type DetectionOptions,
  judgeSeries,
  type SeriesJudgement,
} from '../../analysis/anomalies/detect.js'
import { type ChildDay, driversOf, explainingChild } from '../../analysis/anomalies/drivers.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { roundMoney } from '../../platform/money.js'
import { LeaseLostError } from '../../platform/runs/store.js'
import { addDays, dayDiff } from '../../platform/time.js'

import type { CostReads } from '../costs/read/index.js'
import type { InventoryStore } from '../inventory/public.js'

import type { AnomalyDriver, AnomalyScope } from './schemas.js'
import { isRemoval, type SettlingReads, settledOptions, settlingOf } from './settling.js'
import { type AnomalyStore, type DetectedRow, SCOPE_LEVELS, type ScopeLevel } from './store.js'

/**
 * One scope's daily usage cost. `key` by level: tenant `''`; subscription its id; resourceGroup
 * `{subscriptionId}/{lower-cased group name}`; service its name; resource its lower-cased ARM id. `parent` is the key
 * of the scope one level up in tenant > subscription > resourceGroup > resource (null for tenant and service).
 * `values[i]` is the cost of day `from + i`, 0 for a day without cost.
 */
interface ScopeSeries {
  key: string
  parent: string | null
  /** A resource's service: the resources of a service are its drivers. */
  service?: string
  values: Float64Array
}

/**
 * The usage series of one level as detection judges them: those in the tenant's billing currency (rows in another
 * currency are left out), without the scopes that have no key at that level (a subscription's own charges, at the
 * group or resource level).
 */
function judgedSeries(found: Awaited<ReturnType<CostReads['usageSeries']>>, level: ScopeLevel, currency: string) {
  const keyless = level === 'resourceGroup' || level === 'resource'
  return found
    .filter((s) => s.currency === currency && !(keyless && (s.scopeKey === '' || s.scopeKey.endsWith('/'))))
    .map((s): ScopeSeries => ({ key: s.scopeKey, parent: s.parent, service: s.service, values: s.costs }))
}

/**
 * The level whose scopes break down a scope of this level (drivers): tenant > subscription > group > resource, and
 * a service's resources (each resource counted under its service).
 */
const CHILD_LEVEL: Partial<Record<ScopeLevel, ScopeLevel>> = {
  tenant: 'subscription',
  subscription: 'resourceGroup',
  resourceGroup: 'resource',
  service: 'resource',
}
const MAX_DRIVERS = 5
/**
 * Incidents: a parent's episode and a descendant's belong to one incident when the descendant drove at least this
 * share of the parent's change and the two episodes start within a day of each other. A group's outage spreads
 * over its resources: those big enough to be anomalies themselves each drive a tenth or more of it.
 */
export const INCIDENT_SHARE = 0.1
/** Drivers followed for incidents: at most this many children of a scope, each with INCIDENT_SHARE or more. */
const LINK_DRIVERS = 10

/**
 * Days read before the run's first day: the seasonal baseline's weeks, the five weeks of its scale, and four more
 * weeks so that an outlier or a level shift just before the range is cleaned out of the history first.
 */
export function historyDays(options: DetectionOptions): number {
  return options.seasonWeeks * 7 + 63
}

interface Judged {
  series: ScopeSeries
  judgement: SeriesJudgement
}

/** How scopes are named in records and sentences: from the inventory, by the keys cost rows carry. */
interface Names {
  subscriptions: Map<string, string>
  groups: Map<string, string>
  resources: Map<string, { id: string; name: string }>
}

function scopeOf(level: ScopeLevel, s: ScopeSeries, names: Names): { scope: AnomalyScope; label: string } {
  const none = { subscriptionId: null, resourceGroupName: null, resourceId: null, serviceName: null }
  const groupName = (key: string) => names.groups.get(key) ?? key.slice(key.indexOf('/') + 1)
  switch (level) {
    case 'tenant':
      return { scope: { kind: 'Tenant', ...none }, label: 'the tenant' }
    case 'subscription':
      return {
        scope: { kind: 'Subscription', ...none, subscriptionId: s.key },
        label: `subscription ${names.subscriptions.get(s.key) ?? s.key}`,
      }
    case 'resourceGroup': {
      const name = groupName(s.key)
      const subscriptionId = s.key.slice(0, s.key.indexOf('/'))
      return {
        scope: { kind: 'ResourceGroup', ...none, subscriptionId, resourceGroupName: name },
        label: `resource group ${name}`,
      }
    }
    case 'service':
      return { scope: { kind: 'Service', ...none, serviceName: s.key }, label: `service ${s.key}` }
    case 'resource': {
      const resource = names.resources.get(s.key)
      const parent = s.parent ?? '/'
      const slash = parent.indexOf('/')
      const group = parent.slice(slash + 1)
      return {
        scope: {
          kind: 'Resource',
          ...none,
          subscriptionId: parent.slice(0, slash) || null,
          resourceGroupName: group ? groupName(parent) : null,
          resourceId: resource?.id ?? null,
        },
        label: `resource ${resource?.name ?? s.key.split('/').pop()}`,
      }
    }
  }
}

function signedPercent(p: number): string {
  return `${p >= 0 ? '+' : ''}${p.toFixed(2)}%`
}

/** One episode written by a run, with what incidents are grouped by. */
interface Written {
  row: DetectedRow
  level: ScopeLevel
  key: string
  index: number
  /** The descendant scopes with an episode of their own near this one's start that drove its change (linksOf). */
  links: { level: ScopeLevel; key: string }[]
}

/**
 * Groups the episodes one root cause explains into incidents: a parent's episode is linked to a descendant's when
 * the descendant drove at least INCIDENT_SHARE of its change on its first day (through children without an episode
 * of their own, the shares multiplied) and the descendant's episode starts within a day of the parent's; linked
 * episodes form one incident. Its head is the broadest scope (tenant, subscription, resource group, service,
 * resource), then the largest total impact, then the earliest start and the scope key, so the same costs give the
 * same head on every run. Returns each episode's head, by `{scopeKey}\n{dateRaised}`.
 */
export function incidentsOf(written: readonly Written[]): Map<string, string> {
  const keyOf = (w: Written) => `${w.row.scopeKey}\n${w.row.dateRaised}`
  const byScope = new Map<string, Written[]>()
  for (const w of written) {
    const scope = `${w.level}\n${w.key}`
    const list = byScope.get(scope) ?? []
    list.push(w)
    byScope.set(scope, list)
  }
  const parent = new Map<Written, Written>()
  const find = (w: Written): Written => {
    let root = w
    while (parent.has(root)) root = parent.get(root)!
    return root
  }
  for (const w of written) {
    for (const link of w.links) {
      for (const c of byScope.get(`${link.level}\n${link.key}`) ?? []) {
        if (Math.abs(c.index - w.index) > 1) continue
        const [a, b] = [find(w), find(c)]
        if (a !== b) parent.set(b, a)
      }
    }
  }
  const rank = (w: Written) => SCOPE_LEVELS.indexOf(w.level)
  const better = (a: Written, b: Written) =>
    rank(a) - rank(b) ||
    Math.abs(b.row.totalImpact) - Math.abs(a.row.totalImpact) ||
    a.index - b.index ||
    (a.row.scopeKey < b.row.scopeKey ? -1 : a.row.scopeKey > b.row.scopeKey ? 1 : 0)
  const heads = new Map<Written, Written>()
  for (const w of written) {
    const root = find(w)
    const head = heads.get(root)
    if (!head || better(w, head) < 0) heads.set(root, w)
  }
  return new Map(written.map((w) => [keyOf(w), keyOf(heads.get(find(w))!)]))
}

/**
 * The anomaly analyser: judges the daily usage cost of every scope of the tenant (tenant, subscriptions, resource
 * groups, services, resources) and upserts one anomaly per episode that overlaps the run's days, keyed by (tenant,
 * scope, first day): a re-run updates the episode (its end, totals, severity) and never duplicates it. Status and
 * feedback are a person's and never written here; episodes a person said were Expected are adopted at once as
 * their scope's new level. Finally the episodes are grouped into incidents (see incidentsOf).
 */
export function createAnomalyAnalyser(deps: {
  store: AnomalyStore
  /** The cost read path: the tenant's billing currency once per run, each level's usage series once. */
  costs: Pick<CostReads, 'usageSeries' | 'billingCurrencies'>
  inventory: Pick<InventoryStore, 'groupNames' | 'resourcesByKey' | 'subscriptionNames'>
  organisationOf(tenantId: string): Promise<string | null>
  /** Settled days and removals (settling.ts); without them every day is judged and nothing is a removal. */
  settling?: SettlingReads
  options: DetectionOptions
  clock: Clock
  ids: Ids
}): Analyser {
  const { store, options } = deps
  return {
    name: 'anomalies',
    async analyse({ tenantId, from: askedFrom, to, signal, progress }) {
      const organisationId = await deps.organisationOf(tenantId)
      if (!organisationId) return // the tenant is gone
      const { from, settling } = await settlingOf(
        deps.settling,
        tenantId,
        { from: askedFrom, to },
        historyDays(options),
      )
      const readFrom = addDays(from, -historyDays(options))
      const judged = new Map<ScopeLevel, Map<string, Judged>>()
      const currency = (await deps.costs.billingCurrencies([tenantId])).get(tenantId)!
      const [expectedStarts, ongoing] = await Promise.all([store.expectedStarts(tenantId), store.ongoingKeys(tenantId)])
      let start = -1
      let adoptions = new Map<string, Set<number>>()
      for (const level of SCOPE_LEVELS) {
        if (signal.aborted) throw new LeaseLostError()
        progress(`judging ${level} costs`)
        const read = {
          series: judgedSeries(await deps.costs.usageSeries(tenantId, level, readFrom, to), level, currency),
        }
        // Days before the tenant's first cost are not zero cost but no data: every series starts with the tenant's.
        if (start < 0) {
          const tenantValues = read.series[0]?.values
          start = tenantValues
            ? Math.max(
                0,
                tenantValues.findIndex((v) => v !== 0),
              )
            : 0
          adoptions = adoptionsOf(expectedStarts, addDays(readFrom, start))
        }
        const byKey = new Map<string, Judged>()
        const firstDay = addDays(readFrom, start)
        for (const series of read.series) {
          const values = series.values.subarray(start)
          const settled = settledOptions(settling, level, series.key, firstDay)
          const expectedAt = adoptions.get(scopeKeyOf(level, series.key))
          // Changes a person expected and removals are both adopted at once.
          const adoptAt =
            expectedAt && settled.adoptAt
              ? new Set([...expectedAt, ...settled.adoptAt])
              : (expectedAt ?? settled.adoptAt)
          const judgement = judgeSeries(values, { ...options, ...settled, ...(adoptAt ? { adoptAt } : {}) })
          byKey.set(series.key, { series: { ...series, values }, judgement })
        }
        judged.set(level, byKey)
      }
      const firstDay = addDays(readFrom, start)
      const dayOf = (index: number) => addDays(firstDay, index)
      const [subscriptions, groups, resources] = await Promise.all([
        deps.inventory.subscriptionNames(tenantId),
        deps.inventory.groupNames(tenantId),
        deps.inventory.resourcesByKey(tenantId),
      ])
      const names: Names = { subscriptions, groups, resources }

      // Children by parent key: a subscription's groups, a group's resources, a service's resources.
      const childrenOf = new Map<ScopeLevel, Map<string, Judged[]>>()
      const add = (level: ScopeLevel, parent: string, j: Judged) => {
        const byParent = childrenOf.get(level) ?? new Map<string, Judged[]>()
        childrenOf.set(level, byParent)
        const list = byParent.get(parent) ?? []
        list.push(j)
        byParent.set(parent, list)
      }
      for (const [level, byKey] of judged) {
        for (const j of byKey.values()) {
          if (j.series.parent !== null) add(level, j.series.parent, j)
          if (level === 'resource' && j.series.service !== undefined) add('service', j.series.service, j)
        }
      }
      const driversAt = (level: ScopeLevel, key: string, index: number, impact: number, limit = MAX_DRIVERS) => {
        const childLevel = CHILD_LEVEL[level]
        if (!childLevel) return { childLevel, drivers: [] }
        // Services are keyed apart: a resource is the child of its group and of its service.
        const children = childrenOf.get(level === 'service' ? 'service' : childLevel)?.get(key) ?? []
        const days: ChildDay[] = children.map((c) => ({
          key: c.series.key,
          expected: c.judgement.expected[index]!,
          actual: c.series.values[index]!,
        }))
        return { childLevel, drivers: driversOf(impact, days, limit) }
      }
      /** The deepest scope that explains the change on its own, following the one explaining child down. */
      const explainedBy = (level: ScopeLevel, key: string, index: number, impact: number): string | null => {
        const { childLevel, drivers } = driversAt(level, key, index, impact)
        const child = explainingChild(drivers)
        if (!child || !childLevel) return null
        const judgedChild = judged.get(childLevel)!.get(child.key)!
        return (
          explainedBy(childLevel, child.key, index, child.change) ??
          scopeOf(childLevel, judgedChild.series, names).label
        )
      }

      // Where each scope's episodes start, for incidents.
      const starts = new Map<string, number[]>()
      for (const [level, byKey] of judged) {
        for (const [key, j] of byKey) {
          if (j.judgement.anomalies.length > 0)
            starts.set(
              `${level}\n${key}`,
              j.judgement.anomalies.map((a) => a.index),
            )
        }
      }
      /**
       * The descendants with an episode starting within a day of `index` that drove at least INCIDENT_SHARE of the
       * change; a child without such an episode is looked through, its share carried down.
       */
      const linksOf = (level: ScopeLevel, key: string, index: number, impact: number, weight: number) => {
        const links: { level: ScopeLevel; key: string }[] = []
        const childLevel = CHILD_LEVEL[level]
        if (!childLevel) return links
        for (const d of driversAt(level, key, index, impact, LINK_DRIVERS).drivers) {
          const share = weight * d.share
          if (share < INCIDENT_SHARE) break // largest share first
          const near = starts.get(`${childLevel}\n${d.key}`)?.some((s) => Math.abs(s - index) <= 1)
          if (near) links.push({ level: childLevel, key: d.key })
          else links.push(...linksOf(childLevel, d.key, index, d.change, share))
        }
        return links
      }

      progress('writing anomalies')
      const detectedAt = deps.clock.now().toISOString()
      const first = dayDiff(firstDay, from)
      const last = dayDiff(firstDay, to)
      const written: Written[] = []
      // The episodes not written, for incidents: a member outside the run's days keeps the incident whole.
      const others: { level: ScopeLevel; series: ScopeSeries; a: DetectedAnomaly }[] = []
      for (const [level, byKey] of judged) {
        for (const { series, judgement } of byKey.values()) {
          for (const a of judgement.anomalies) {
            // A drop adopted for a removal (from its first day, or after days that all fell as it did) is none.
            if (isRemoval(settling, level, series.key, dayOf(a.knownAt ?? a.index), a)) continue
            // Every episode that overlaps the run's days, also one that started before them (it is updated), and
            // one last seen ongoing, which may have ended before them.
            const overlaps = a.end >= first && a.index <= last
            if (overlaps || (a.index <= last && ongoing.has(`${scopeKeyOf(level, series.key)}\n${dayOf(a.index)}`)))
              written.push(writtenOf(level, series, a))
            else if (a.index <= last) others.push({ level, series, a })
          }
        }
      }
      function writtenOf(level: ScopeLevel, series: ScopeSeries, a: DetectedAnomaly): Written {
        const { scope, label } = scopeOf(level, series, names)
        const { childLevel, drivers } = driversAt(level, series.key, a.index, a.impact)
        const driverRecords: AnomalyDriver[] = drivers.map((d) => {
          const child = scopeOf(childLevel!, judged.get(childLevel!)!.get(d.key)!.series, names)
          return {
            scope: child.scope,
            label: child.label.replace(/^(resource group|resource|subscription) /, ''),
            expectedCost: roundMoney(d.expected),
            actualCost: roundMoney(d.actual),
            change: roundMoney(d.change),
            share: Math.round(d.share * 1000) / 1000,
          }
        })
        const driver = explainedBy(level, series.key, a.index, a.impact)
        const sentence =
          `Cost of ${label} was ${a.actual.toFixed(2)} ${currency} against ${a.expected.toFixed(2)} ${currency} ` +
          `expected (${signedPercent(a.impactPercent)})${driver ? `, driven by ${driver}` : ''}.`
        const row: DetectedRow = {
          id: deps.ids.uuid(),
          organisationId: organisationId!,
          tenantId,
          scopeKey: scopeKeyOf(level, series.key),
          scopeKind: scope.kind,
          subscriptionId: scope.subscriptionId,
          resourceGroupName: scope.resourceGroupName,
          resourceId: scope.resourceId,
          serviceName: scope.serviceName,
          dateRaised: dayOf(a.index),
          severity: a.severity,
          expectedCost: roundMoney(a.expected),
          actualCost: roundMoney(a.actual),
          impact: roundMoney(a.impact),
          impactPercent: Math.round(a.impactPercent * 100) / 100,
          currency,
          description: sentence,
          drivers: driverRecords,
          detectedAt,
          episodeEnd: dayOf(a.end),
          ongoing: a.ongoing ? 1 : 0,
          episodeExpectedCost: roundMoney(a.totalExpected),
          episodeActualCost: roundMoney(a.totalActual),
          totalImpact: roundMoney(a.totalImpact),
          maxImpact: roundMoney(a.maxImpact),
        }
        return { row, level, key: series.key, index: a.index, links: linksOf(level, series.key, a.index, a.impact, 1) }
      }
      if (signal.aborted) throw new LeaseLostError()
      const rows = written.map((w) => w.row)
      await store.upsert(rows, detectedAt)
      const found = new Set(rows.map((r) => `${r.scopeKey}\n${r.dateRaised}`))
      await store.removeUnconfirmed(tenantId, from, to, found, firstDay)
      if (rows.length > 0) {
        progress('grouping incidents')
        const low = written.reduce((m, w) => Math.min(m, w.index), Number.POSITIVE_INFINITY) - 1
        const high = written.reduce((m, w) => Math.max(m, w.index), 0) + 1
        const near = others.filter((o) => o.a.index >= low && o.a.index <= high)
        const grouped = [...written, ...near.map((o) => writtenOf(o.level, o.series, o.a))]
        const stored = await store.idsBetween(tenantId, dayOf(low), dayOf(high))
        // Only the anomalies whose incident changed are written.
        const heads = new Map<string, string>()
        for (const [key, head] of incidentsOf(grouped)) {
          const row = stored.get(key)
          const headId = stored.get(head)?.id
          if (row && headId && row.incidentId !== headId) heads.set(row.id, headId)
        }
        await store.setIncidents(heads)
      }
      progress(`${rows.length} anomalies`)
    },
  }
}

/** An anomaly's scope key: `tenant`, or `{level}:{series key}`. */
function scopeKeyOf(level: ScopeLevel, key: string): string {
  return level === 'tenant' ? 'tenant' : `${level}:${key}`
}

/** The positions (from `firstDay`) of the episode starts a person said were expected, by scope key. */
function adoptionsOf(starts: readonly { scopeKey: string; dateRaised: string }[], firstDay: string) {
  const byScope = new Map<string, Set<number>>()
  for (const s of starts) {
    const index = dayDiff(firstDay, s.dateRaised)
    if (index < 0) continue
    const set = byScope.get(s.scopeKey) ?? new Set<number>()
    set.add(index)
    byScope.set(s.scopeKey, set)
  }
  return byScope
}
