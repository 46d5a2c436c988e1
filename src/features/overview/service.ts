import { type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock } from '../../platform/clock.js'
import { ApiError } from '../../platform/http/errors.js'
import { roundMoney } from '../../platform/money.js'
import { addDays, monthEndOf, toDay } from '../../platform/time.js'
import { AnomalySeverities } from '../anomalies/public.js'
import type { CostReads, ScopeUsage } from '../costs/read/index.js'
import { type EventRecord, type EventService, isUniversal } from '../events/public.js'
import type { BudgetAtRisk, CurrencyOverview, Mover, Overview, OverviewQuery, TenancyForecast } from './schemas.js'
import {
  changePercent,
  combineIntervals,
  type Interval,
  lastSettledDay,
  monthToDateWindows,
  type RateChange,
  topMovers,
  weekWindows,
} from './summary.js'

/** Movers shown per currency. */
export const MOVERS = 5

/**
 * The budgets whose forecast crosses their amount this period, among those the principal may read (narrowed to
 * budgets covering `tenancyId` when given). Provided by the budgets feature through the wiring.
 */
export type BudgetsAtRisk = (who: Principal, filter: { tenancyId?: string }) => Promise<BudgetAtRisk[]>

/** A tenancy's month-end forecast, in its currency (see the costs feature's forecast); `monthEnd` null without one. */
export interface TenancyMonthEnd {
  currency: string
  historyDays: number
  requiredDays: number
  monthEnd: Interval | null
}

export interface OverviewDeps {
  clock: Clock
  /** The organisation's tenancies, by name. */
  tenancies(organisationId: string): Promise<{ id: string; name: string }[]>
  costs: Pick<CostReads, 'costByCurrency' | 'scopeUsage' | 'settledThrough'>
  /** A tenancy's month-end forecast, the one its cost forecast gives (one model for the explorer and here). */
  monthEnd(tenantId: string): Promise<TenancyMonthEnd>
  /** Display names of a tenancy's subscriptions (by id) and resource groups (by `{subscriptionId}/{lower name}`). */
  names: {
    subscriptionNames(tenantId: string): Promise<ReadonlyMap<string, string>>
    groupNames(tenantId: string): Promise<ReadonlyMap<string, string>>
  }
  events: Pick<EventService, 'visible'>
  anomalyCounts(tenancyIds: readonly string[]): Promise<{ severity: string; count: number }[]>
  insightSavings(
    tenancyIds: readonly string[],
    asOf: string,
  ): Promise<{ currency: string; monthlySavings: number; count: number }[]>
  budgetsAtRisk: BudgetsAtRisk
}

const KINDS: Record<ScopeUsage['level'], Mover['kind']> = {
  subscription: 'Subscription',
  resourceGroup: 'ResourceGroup',
  service: 'Service',
}

/** A web interface path with its query (empty values left out). */
function link(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value)
  const text = search.toString()
  return text ? `${path}?${text}` : path
}

interface MoverCandidate {
  tenancyId: string
  tenancyName: string
  level: ScopeUsage['level']
  key: string
  week: ReturnType<typeof weekWindows>
  rate: number
  previousRate: number
}

export function createOverviewService(deps: OverviewDeps) {
  const { costs } = deps

  /** The tenancies the overview covers: those the principal sees, or the one asked for (unseen: a 404). */
  async function tenanciesOf(who: Principal, tenancyId: string | undefined) {
    const all = await deps.tenancies(who.organisationId)
    const visible = visibleTenancies(who)
    const seen = visible === 'all' ? all : all.filter((t) => visible.includes(t.id))
    if (tenancyId === undefined) return seen
    const one = seen.filter((t) => t.id === tenancyId.toLowerCase())
    if (one.length === 0) throw ApiError.notFound(`Tenancy ${tenancyId}`)
    return one
  }

  /** Each subscription's, group's and service's daily usage rate this week and the week before, per currency. */
  async function rateChanges(tenancy: { id: string; name: string }, today: string, settled: string | null) {
    const week = weekWindows(lastSettledDay(today, settled))
    const [now, before] = await Promise.all([
      costs.scopeUsage(tenancy.id, week.current.from, week.current.to),
      costs.scopeUsage(tenancy.id, week.previous.from, week.previous.to),
    ])
    const scopes = new Map<
      string,
      { level: ScopeUsage['level']; key: string; currency: string; now: number; before: number }
    >()
    const add = (rows: ScopeUsage[], side: 'now' | 'before') => {
      for (const r of rows) {
        const id = `${r.level}\n${r.scopeKey}\n${r.currency}`
        const s = scopes.get(id) ?? { level: r.level, key: r.scopeKey, currency: r.currency, now: 0, before: 0 }
        s[side] += r.cost
        scopes.set(id, s)
      }
    }
    add(now, 'now')
    add(before, 'before')
    return [...scopes.values()].map(
      (s): RateChange<MoverCandidate> => ({
        item: {
          tenancyId: tenancy.id,
          tenancyName: tenancy.name,
          level: s.level,
          key: s.key,
          week,
          rate: s.now / 7,
          previousRate: s.before / 7,
        },
        currency: s.currency,
        change: (s.now - s.before) / 7,
        order: `${tenancy.name}\n${tenancy.id}\n${s.level}\n${s.key}`,
      }),
    )
  }

  /**
   * The markers on the mover's chart over both weeks: a change inside this week may follow a marker inside it, and
   * one just before it. A scope the inventory no longer knows (a deleted group) shows the universal markers.
   */
  async function markersOn(c: MoverCandidate, subscriptionId: string | null, groupName: string | null) {
    const range = { from: `${c.week.previous.from}T00:00:00.000Z`, to: `${c.week.current.to}T23:59:59.999Z` }
    const scope =
      c.level === 'subscription'
        ? { scope: `subscription:${c.key}` }
        : c.level === 'resourceGroup' && groupName && subscriptionId
          ? { scope: `resourceGroup:${groupName}`, subscriptionId }
          : { scope: 'tenant' }
    let items: EventRecord[]
    try {
      items = (await deps.events.visible(c.tenancyId, { ...scope, ...range })).items
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 409)) throw err
      items = (await deps.events.visible(c.tenancyId, { scope: 'tenant', ...range })).items.filter(isUniversal)
    }
    return items.map((m) => ({ id: m.id, title: m.title, category: m.category, occurredAt: m.occurredAt }))
  }

  /** The ranked movers named, with their likely-cause markers and their chart. */
  async function describeMovers(ranked: RateChange<MoverCandidate>[]): Promise<Mover[]> {
    const names = new Map<string, Promise<[ReadonlyMap<string, string>, ReadonlyMap<string, string>]>>()
    const namesOf = (tenancyId: string) => {
      let found = names.get(tenancyId)
      if (!found) {
        found = Promise.all([deps.names.subscriptionNames(tenancyId), deps.names.groupNames(tenancyId)])
        names.set(tenancyId, found)
      }
      return found
    }
    const movers: Mover[] = []
    for (const { item: c, change } of ranked) {
      const [subscriptions, groups] = await namesOf(c.tenancyId)
      const subscriptionId =
        c.level === 'subscription' ? c.key : c.level === 'resourceGroup' ? c.key.slice(0, c.key.indexOf('/')) : null
      const groupName = c.level === 'resourceGroup' ? (groups.get(c.key) ?? c.key.slice(c.key.indexOf('/') + 1)) : null
      const name =
        c.level === 'subscription'
          ? (subscriptions.get(c.key) ?? c.key)
          : c.level === 'resourceGroup'
            ? groupName || '(no resource group)'
            : c.key
      const range = { from: c.week.previous.from, to: c.week.current.to }
      const explorer = `/tenants/${c.tenancyId}`
      const chart =
        c.level === 'subscription'
          ? link(explorer, { scope: `subscription:${c.key}`, ...range })
          : c.level === 'resourceGroup' && groupName
            ? link(explorer, {
                scope: `resourceGroup:${groupName}`,
                subscriptionId: subscriptionId ?? undefined,
                ...range,
              })
            : c.level === 'resourceGroup'
              ? link(explorer, { scope: `subscription:${subscriptionId}`, groupBy: 'resourceGroup', ...range })
              : link(explorer, { groupBy: 'service', ...range })
      movers.push({
        tenancyId: c.tenancyId,
        tenancyName: c.tenancyName,
        kind: KINDS[c.level],
        key: c.key,
        name,
        subscriptionId,
        from: c.week.current.from,
        to: c.week.current.to,
        previousFrom: c.week.previous.from,
        previousTo: c.week.previous.to,
        dailyRate: roundMoney(c.rate),
        previousDailyRate: roundMoney(c.previousRate),
        change: roundMoney(change),
        changePercent: changePercent(c.rate, c.previousRate),
        markers: await markersOn(c, subscriptionId, groupName || null),
        link: chart,
      })
    }
    return movers
  }

  return {
    async overview(who: Principal, query: OverviewQuery): Promise<Overview> {
      const now = deps.clock.now()
      const today = toDay(now)
      const tenancies = await tenanciesOf(who, query.tenancyId)
      const ids = tenancies.map((t) => t.id)
      const narrowed = query.tenancyId === undefined ? undefined : ids[0]
      const windows = monthToDateWindows(today)

      const [current, previous, anomalyCounts, savings, budgets] = await Promise.all([
        costs.costByCurrency(ids, windows.current.from, windows.current.to),
        costs.costByCurrency(ids, windows.previous.from, windows.previous.to),
        deps.anomalyCounts(ids),
        deps.insightSavings(ids, now.toISOString()),
        deps.budgetsAtRisk(who, { tenancyId: narrowed }),
      ])
      // One tenancy at a time: each reads its history and fits its model; SQLite serves one read at a time anyway.
      const perTenancy: { forecast: TenancyForecast & { currency: string }; settled: string | null }[] = []
      const changes: RateChange<MoverCandidate>[] = []
      for (const t of tenancies) {
        const [forecast, settled] = await Promise.all([deps.monthEnd(t.id), costs.settledThrough(t.id)])
        perTenancy.push({
          settled,
          forecast: {
            tenancyId: t.id,
            name: t.name,
            currency: forecast.currency,
            status: forecast.monthEnd ? 'Forecast' : 'NotEnoughHistory',
            historyDays: forecast.historyDays,
            requiredDays: forecast.requiredDays,
            monthEnd: forecast.monthEnd,
          },
        })
        changes.push(...(await rateChanges(t, today, settled)))
      }

      const currencies = new Set<string>([
        ...current.map((r) => r.currency),
        ...previous.map((r) => r.currency),
        ...perTenancy.map((p) => p.forecast.currency),
        ...changes.map((c) => c.currency),
        ...savings.map((s) => s.currency),
      ])
      const sumOf = (rows: typeof current, currency: string) =>
        roundMoney(rows.reduce((sum, r) => (r.currency === currency ? sum + r.cost : sum), 0))

      const byCurrency: CurrencyOverview[] = []
      for (const currency of currencies) {
        const amount = sumOf(current, currency)
        const before = sumOf(previous, currency)
        const billed = new Set(current.filter((r) => r.currency === currency).map((r) => r.tenantId))
        // The earliest day after a contributing tenancy's settled day; today is never complete.
        const preliminaryFrom = perTenancy
          .filter((p) => billed.has(p.forecast.tenancyId))
          .map((p) => (p.settled === null ? today : addDays(p.settled, 1)))
          .reduce((min, d) => (d < min ? d : min), today)
        const forecasts = perTenancy.filter((p) => p.forecast.currency === currency).map((p) => p.forecast)
        const saved = savings.find((s) => s.currency === currency)
        byCurrency.push({
          currency,
          monthToDate: {
            ...windows.current,
            amount,
            preliminaryFrom: preliminaryFrom < windows.current.from ? windows.current.from : preliminaryFrom,
            previous: { ...windows.previous, amount: before },
            change: roundMoney(amount - before),
            changePercent: changePercent(amount, before),
          },
          forecast: {
            date: monthEndOf(today),
            total: combineIntervals(forecasts.flatMap((f) => (f.monthEnd ? [f.monthEnd] : []))),
            tenancies: forecasts.map(({ currency: _, ...f }) => f),
          },
          movers: await describeMovers(
            topMovers(
              changes.filter((c) => c.currency === currency),
              MOVERS,
            ),
          ),
          savings: {
            monthly: roundMoney(saved?.monthlySavings ?? 0),
            insights: saved?.count ?? 0,
            link: link('/insights', { tenancyId: narrowed }),
          },
        })
      }
      byCurrency.sort((a, b) => b.monthToDate.amount - a.monthToDate.amount || (a.currency < b.currency ? -1 : 1))

      const counts = new Map(anomalyCounts.map((c) => [c.severity, c.count]))
      return {
        asOf: today,
        tenancies,
        currencies: byCurrency,
        budgetsAtRisk: [...budgets].sort((a, b) =>
          a.breachDate < b.breachDate ? -1 : a.breachDate > b.breachDate ? 1 : a.name < b.name ? -1 : 1,
        ),
        anomalies: {
          total: anomalyCounts.reduce((sum, c) => sum + c.count, 0),
          link: link('/anomalies', { tenancyId: narrowed, status: 'Active' }),
          bySeverity: AnomalySeverities.map((severity) => ({
            severity,
            count: counts.get(severity) ?? 0,
            link: link('/anomalies', { tenancyId: narrowed, status: 'Active', severity }),
          })),
        },
      }
    },
  }
}
export type OverviewService = ReturnType<typeof createOverviewService>
