import type { Clock } from '../../platform/clock.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { roundMoney } from '../../platform/money.js'
import { addDays, dayBounds, dayCount, daysBetween, monthStart, toDay } from '../../platform/time.js'

import type { EventService } from '../events/public.js'
import { CHART_SCOPE_ERROR, type ChartScope, parseChartScope, type ResolvedChartScope } from '../shared/chart-scope.js'

import { MAX_GROUPS, MAX_SERIES_DAYS } from './constants.js'
import { forecastOf, forecastWindow } from './forecast.js'
import { type KeyedCost, OTHER_GROUP, rankedGroups } from './groups.js'
import {
  type ChargeSelection,
  type CostReads,
  currencyOfLatest,
  type SeriesFilter,
  type SeriesGrouping,
} from './read/index.js'
import type { CostForecast, CostSeries } from './schemas.js'

/** Sums `{date, key, cost}` rows into a series per key, every day present, largest total first. */
export function groupSeries(rows: readonly KeyedCost[], days: readonly string[], maxGroups: number) {
  return rankedGroups(rows, maxGroups).map((g) => ({
    key: g.key,
    cost: roundMoney(g.total),
    points: days.map((date) => ({ date, cost: roundMoney(g.days.get(date) ?? 0) })),
  }))
}

/**
 * What a chart needs of the inventory: its scope found (unknown, a 404), once for its costs and its markers, and the
 * names its groups are shown by. Declared here and satisfied by the inventory's service and store, so that costs
 * imports nothing of the inventory, which reads costs.
 */
export interface ChartScopes {
  resolveChartScope(tenantId: string, scope: ChartScope, subscriptionId?: string): Promise<ResolvedChartScope>
}
export interface ChartNames {
  /** Resources' names by their lower-cased ARM id, the key cost rows carry. */
  resourcesByKey(tenantId: string): Promise<ReadonlyMap<string, { name: string }>>
  /** Resource groups' names by `{subscriptionId}/{lower-cased name}`. */
  groupNames(tenantId: string): Promise<ReadonlyMap<string, string>>
  /** The names of a few resources by key (those of the groups a chart shows, not the tenant's all). */
  resourceNames(tenantId: string, keys: string[]): Promise<ReadonlyMap<string, string>>
}

/** A resource group's series key; the costs of no resource group (`{subscriptionId}/`) are the group "". */
const groupKeyOf = (key: string) => (key.endsWith('/') ? '' : key)

/** A chart's `groupBy` as the series read it: a tag's key lower-cased. */
function groupingOf(groupBy: string | null): SeriesGrouping | { tagKey: string } {
  return groupBy?.startsWith('tag:')
    ? { tagKey: groupBy.slice(4).toLowerCase() }
    : (groupBy as 'service' | 'resourceGroup' | 'resource' | null)
}

/** The cost rows of a chart's scope. */
function filterOf(scope: ResolvedChartScope): SeriesFilter {
  switch (scope.kind) {
    case 'tenant':
      return { kind: 'tenant' }
    case 'subscription':
      return { kind: 'subscription', subscriptionId: scope.subscriptionId }
    case 'resourceGroup':
      return { kind: 'resourceGroup', subscriptionId: scope.subscriptionId, groupKey: scope.name.toLowerCase() }
    case 'resource':
      return { kind: 'resource', resourceKey: scope.armId.toLowerCase() }
  }
}

export function createCostService(deps: {
  series: Pick<
    CostReads,
    'daily' | 'resourceTotals' | 'resourceDaily' | 'tagDaily' | 'billingCurrency' | 'settledThrough'
  >
  inventoryStore: ChartNames
  inventory: ChartScopes
  events: Pick<EventService, 'visibleOn'>
  clock: Clock
}) {
  const { series, inventoryStore, inventory } = deps

  /** The chart's scope parsed (malformed, a 400) and found in the inventory: once per request. */
  async function scopeOf(scopeText: string, tenantId: string, subscriptionId?: string) {
    const scope = parseChartScope(scopeText)
    if (!scope) {
      throw ApiError.invalid({ scope: [CHART_SCOPE_ERROR] })
    }
    return inventory.resolveChartScope(tenantId, scope, subscriptionId)
  }

  /** A resource's name by its key; '' is the subscriptions' own charges. */
  async function resourceLabels(tenantId: string): Promise<(key: string) => string> {
    const resources = await inventoryStore.resourcesByKey(tenantId)
    return (key) => (key === '' ? '(subscription charges)' : (resources.get(key)?.name ?? key.split('/').pop()!))
  }

  /** How a chart's groups are named: resource groups and resources by their names, tag values as they are. */
  async function groupLabels(tenantId: string, groupBy: string): Promise<(key: string) => string> {
    if (groupBy === 'resourceGroup') {
      const names = await inventoryStore.groupNames(tenantId)
      return (key) => (key === '' ? '(no resource group)' : (names.get(key) ?? key.split('/').pop()!))
    }
    if (groupBy === 'resource') return resourceLabels(tenantId)
    // Rows come keyed by the tag's value (any spelling of the key: Azure tag names are case-insensitive).
    if (groupBy.startsWith('tag:')) return (key) => (key === '' ? `(no ${groupBy.slice(4)} tag)` : key)
    return (key) => key
  }

  /**
   * A tenant's chart by resource without reading every resource's days: the resources ranked by their totals over
   * the range (from the running totals), the daily rows of the largest MAX_GROUPS alone, and "(other)" as the
   * tenant's daily total less theirs.
   */
  async function largestResources(
    tenantId: string,
    currency: string,
    from: string,
    to: string,
    days: readonly string[],
    totalByDay: ReadonlyMap<string, number>,
  ) {
    const ranked = (await series.resourceTotals(tenantId, currency, from, to)).sort(
      (a, b) => b.cost - a.cost || (a.key < b.key ? -1 : 1),
    )
    const kept = ranked.slice(0, MAX_GROUPS)
    const rest = ranked.slice(MAX_GROUPS)
    const rows = await series.resourceDaily(
      tenantId,
      kept.map((r) => r.key),
      currency,
      from,
      to,
    )
    const groups = groupSeries(rows, days, MAX_GROUPS)
    if (rest.length === 0) return groups
    const keptByDay = new Map<string, number>()
    for (const r of rows) keptByDay.set(r.date, (keptByDay.get(r.date) ?? 0) + r.cost)
    groups.push({
      key: OTHER_GROUP,
      cost: roundMoney(rest.reduce((a, r) => a + r.cost, 0)),
      points: days.map((date) => ({
        date,
        cost: roundMoney((totalByDay.get(date) ?? 0) - (keptByDay.get(date) ?? 0)),
      })),
    })
    return groups
  }

  /**
   * A tenant's rows by tag from the tag series: those of each value, and the costs without the tag as the day's
   * total less them (key ''), present when they come to a cent on some day or over the range.
   */
  async function tenantByTag(
    tenantId: string,
    tagKey: string,
    currency: string,
    from: string,
    to: string,
    totalByDay: ReadonlyMap<string, number>,
  ) {
    const tagged = (await series.tagDaily(tenantId, tagKey, from, to)).filter((r) => r.currency === currency)
    const taggedByDay = new Map<string, number>()
    for (const r of tagged) taggedByDay.set(r.date, (taggedByDay.get(r.date) ?? 0) + r.cost)
    const untagged = [...totalByDay].map(([date, cost]) => ({
      date,
      key: '',
      cost: cost - (taggedByDay.get(date) ?? 0),
    }))
    const shown =
      untagged.some((r) => roundMoney(r.cost) !== 0) || roundMoney(untagged.reduce((a, r) => a + r.cost, 0)) !== 0
    return shown ? [...tagged, ...untagged] : tagged
  }

  return {
    /** The forecast of a chart's series (see forecastOf), after its last settled day. */
    async forecast(
      tenantId: string,
      query: { scope?: string; subscriptionId?: string; groupBy?: string; to?: string },
    ): Promise<CostForecast> {
      const today = toDay(deps.clock.now())
      const window = forecastWindow(today, await series.settledThrough(tenantId), query.to)
      const scopeText = query.scope ?? 'tenant'
      const filter = filterOf(await scopeOf(scopeText, tenantId, query.subscriptionId))
      const groupBy = query.groupBy ?? null
      const grouping = groupingOf(groupBy)
      const read = (from: string, to: string, charges: ChargeSelection) =>
        from > to ? Promise.resolve([]) : series.daily(tenantId, filter, from, to, grouping, charges)
      const [usage, otherCharges, monthToDate] = await Promise.all([
        read(window.historyFrom, window.historyTo, 'usage'),
        read(window.historyFrom, window.historyTo, 'nonUsage'),
        read(monthStart(today), window.historyTo, 'all'),
      ])
      // One currency per forecast, as per chart: that of the latest usage day.
      const currency =
        currencyOfLatest(usage.map((r) => ({ currency: r.currency, lastDate: r.date }))) ??
        (await series.billingCurrency(tenantId))
      const keyed = (rows: typeof usage) =>
        rows
          .filter((r) => r.currency === currency)
          .map((r) => ({ date: r.date, cost: r.cost, key: groupBy === 'resourceGroup' ? groupKeyOf(r.key) : r.key }))
      const nameOf = groupBy === null ? () => scopeText : await groupLabels(tenantId, groupBy)
      const forecast = forecastOf({
        window,
        today,
        usage: keyed(usage),
        otherCharges: keyed(otherCharges),
        monthToDate: keyed(monthToDate),
        maxGroups: MAX_GROUPS,
        nameOf,
      })
      return {
        scope: scopeText,
        groupBy,
        currency,
        method: 'TheilSenWeekly',
        historyTo: window.historyTo,
        from: window.from,
        to: window.to,
        ...forecast,
      }
    },

    /** Daily cost of one chart with its groups and the markers drawn on it. */
    async daily(
      tenantId: string,
      query: { scope?: string; subscriptionId?: string; from?: string; to?: string; groupBy?: string },
    ): Promise<CostSeries> {
      const today = toDay(deps.clock.now())
      const to = query.to ?? today
      const from = query.from ?? addDays(to, -29)
      const errors: FieldErrors = {}
      if (from > to) errors.from = ['must not be after to']
      else if (dayCount(from, to) > MAX_SERIES_DAYS)
        errors.from = [`the range may span at most ${MAX_SERIES_DAYS} days`]
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      const scopeText = query.scope ?? 'tenant'
      const resolved = await scopeOf(scopeText, tenantId, query.subscriptionId)
      const filter = filterOf(resolved)
      const days = daysBetween(from, to)
      const groupBy = query.groupBy ?? null
      const tagKey = groupBy?.startsWith('tag:') ? groupBy.slice(4).toLowerCase() : null
      const grouping = groupingOf(groupBy)
      const totalRows = await series.daily(tenantId, filter, from, to, null)
      // One currency per chart: that of its latest day; rows in another one are left out, never added in.
      const currency =
        currencyOfLatest(totalRows.map((r) => ({ currency: r.currency, lastDate: r.date }))) ??
        (await series.billingCurrency(tenantId))
      const totalByDay = new Map<string, number>()
      for (const r of totalRows) if (r.currency === currency) totalByDay.set(r.date, r.cost)
      const [total] = groupSeries(
        [...totalByDay].map(([date, cost]) => ({ date, key: '', cost })),
        days,
        1,
      )
      const result: CostSeries = {
        scope: scopeText,
        from,
        to,
        currency,
        groupBy,
        points: total?.points ?? days.map((date) => ({ date, cost: 0 })),
        markers: (
          await deps.events.visibleOn(tenantId, resolved, {
            scope: scopeText,
            subscriptionId: query.subscriptionId,
            from: dayBounds(from).start,
            to: dayBounds(to).end,
          })
        ).items,
        settledThrough: await series.settledThrough(tenantId),
      }
      if (groupBy === null) return result

      if (groupBy === 'resource' && filter.kind === 'tenant') {
        const groups = await largestResources(tenantId, currency, from, to, days, totalByDay)
        const names = await inventoryStore.resourceNames(
          tenantId,
          groups.map((g) => g.key),
        )
        const label = (key: string) =>
          key === '' ? '(subscription charges)' : (names.get(key) ?? key.split('/').pop()!)
        result.groups = groups.map((g) => ({ ...g, label: g.key === OTHER_GROUP ? OTHER_GROUP : label(g.key) }))
        return result
      }
      const rows =
        tagKey !== null && filter.kind === 'tenant'
          ? await tenantByTag(tenantId, tagKey, currency, from, to, totalByDay)
          : (await series.daily(tenantId, filter, from, to, grouping)).filter((r) => r.currency === currency)
      const labelOf = await groupLabels(tenantId, groupBy)
      const keyed = groupBy === 'resourceGroup' ? rows.map((r) => ({ ...r, key: groupKeyOf(r.key) })) : rows
      result.groups = groupSeries(keyed, days, MAX_GROUPS).map((g) => ({
        key: g.key,
        label: g.key === OTHER_GROUP ? OTHER_GROUP : labelOf(g.key),
        cost: g.cost,
        points: g.points,
      }))
      return result
    },
  }
}
export type CostService = ReturnType<typeof createCostService>
