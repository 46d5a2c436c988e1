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
    .map((s): ScopeSeries => ({ key: s.scopeKey, parent: s.parent, values: s.costs }))
}

/** The level whose scopes break down a scope of this level (drivers); tenant > subscription > group > resource. */
const CHILD_LEVEL: Partial<Record<ScopeLevel, ScopeLevel>> = {
  tenant: 'subscription',
  subscription: 'resourceGroup',
  resourceGroup: 'resource',
}
const MAX_DRIVERS = 5

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
      return { scope: { kind: 'Subscription', ...none, subscriptionId: s.key }, label: `subscription ${s.key}` }
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

/**
 * The anomaly analyser: judges the daily usage cost of every scope of the tenant (tenant, subscriptions, resource
 * groups, services, resources) and upserts one anomaly per (scope, day) raised within the run's days. Idempotent:
 * the judgement of the same costs is the same, rows are keyed by (tenant, scope, day), and status is never written.
 */
export function createAnomalyAnalyser(deps: {
  store: AnomalyStore
  /** The cost read path: the tenant's billing currency once per run, each level's usage series once. */
  costs: Pick<CostReads, 'usageSeries' | 'billingCurrencies'>
  inventory: Pick<InventoryStore, 'groupNames' | 'resourcesByKey'>
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
      let start = -1
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
        }
        const byKey = new Map<string, Judged>()
        const firstDay = addDays(readFrom, start)
        for (const series of read.series) {
          const values = series.values.subarray(start)
          const judgement = judgeSeries(values, {
            ...options,
            ...settledOptions(settling, level, series.key, firstDay),
          })
          byKey.set(series.key, { series: { ...series, values }, judgement })
        }
        judged.set(level, byKey)
      }
      const firstDay = addDays(readFrom, start)
      const dayOf = (index: number) => addDays(firstDay, index)
      const [groups, resources] = await Promise.all([
        deps.inventory.groupNames(tenantId),
        deps.inventory.resourcesByKey(tenantId),
      ])
      const names: Names = { groups, resources }

      const childrenOf = new Map<ScopeLevel, Map<string, Judged[]>>()
      for (const [level, byKey] of judged) {
        const byParent = new Map<string, Judged[]>()
        for (const j of byKey.values()) {
          if (j.series.parent === null) continue
          const list = byParent.get(j.series.parent) ?? []
          list.push(j)
          byParent.set(j.series.parent, list)
        }
        childrenOf.set(level, byParent)
      }
      const driversAt = (level: ScopeLevel, key: string, index: number, impact: number) => {
        const childLevel = CHILD_LEVEL[level]
        if (!childLevel) return { childLevel, drivers: [] }
        const children = childrenOf.get(childLevel)?.get(key) ?? []
        const days: ChildDay[] = children.map((c) => ({
          key: c.series.key,
          expected: c.judgement.expected[index]!,
          actual: c.series.values[index]!,
        }))
        return { childLevel, drivers: driversOf(impact, days, MAX_DRIVERS) }
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

      progress('writing anomalies')
      const detectedAt = deps.clock.now().toISOString()
      const first = dayDiff(firstDay, from)
      const last = dayDiff(firstDay, to)
      const rows: DetectedRow[] = []
      for (const [level, byKey] of judged) {
        for (const { series, judgement } of byKey.values()) {
          for (const a of judgement.anomalies) {
            if (a.index < first || a.index > last) continue
            if (isRemoval(settling, level, series.key, dayOf(a.index), a)) continue
            rows.push(rowOf(level, series, a))
          }
        }
      }
      function rowOf(level: ScopeLevel, series: ScopeSeries, a: DetectedAnomaly): DetectedRow {
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
        return {
          id: deps.ids.uuid(),
          organisationId: organisationId!,
          tenantId,
          scopeKey: level === 'tenant' ? 'tenant' : `${level}:${series.key}`,
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
      }
      if (signal.aborted) throw new LeaseLostError()
      await store.upsert(rows, detectedAt)
      await store.removeUnconfirmed(tenantId, from, to, new Set(rows.map((r) => `${r.scopeKey}\n${r.dateRaised}`)))
      progress(`${rows.length} anomalies`)
    },
  }
}
