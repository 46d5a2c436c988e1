import { daysBetween } from '../../platform/time.js'
import type { CellShape, ChargeSelection, ScopeCell, ScopeFilter } from '../costs/read/index.js'
import type { ScopeCosts } from './status.js'
import type { BudgetDefinition } from './store.js'

/** What budgets read of costs, through the costs feature's read path. */
export interface BudgetCostReads {
  filteredDaily(
    tenantId: string,
    filter: ScopeFilter,
    from: string,
    to: string,
    charges: ChargeSelection,
  ): Promise<{ date: string; currency: string; cost: number }[]>
  scopeCells(tenantId: string, tagKey: string | null, from: string, to: string, shape?: CellShape): Promise<ScopeCell[]>
  filteredServices(
    tenantId: string,
    filter: ScopeFilter,
    from: string,
    to: string,
  ): Promise<{ service: string; currency: string; cost: number }[]>
  settledThrough(tenantId: string): Promise<string | null>
}

export type ScopeCostsOf = (budget: BudgetDefinition) => ScopeCosts & {
  /** The scope's cost per service over [from, to], in the budget's currency, largest first. */
  services(from: string, to: string): Promise<{ service: string; cost: number }[]>
}

type DailyRows = { date: string; currency: string; cost: number }[]

const filterOf = (budget: BudgetDefinition): ScopeFilter => ({
  tags: budget.scope.tags ?? [],
  resourceGroup: budget.scope.resourceGroup ?? null,
  service: budget.scope.service ?? null,
})

/**
 * A tenant's daily reads asked for together (budgets evaluated at once ask in the same turn): beyond one, one read
 * of the cells they are all summed from (scopeCells) instead of one read each. Those without tags from the group
 * series, in one read; those of one tag from the tag series, one read per tag key for those without a resource
 * group (split by service) and one for those with one (kept to their combinations); those of several tags (rare:
 * the tag series keep one key each) one read each, from the resource series.
 */
const BATCH_FROM = 2

interface Strand {
  resourceGroup: string
  service: string
  chargeCategory: string
  currency: string
  tagValue: string | null
  costs: Float64Array
  present: Uint8Array
}

interface DailyWant {
  tenantId: string
  filter: ScopeFilter
  from: string
  to: string
  charges: ChargeSelection
  done(rows: DailyRows): void
  failed(err: unknown): void
}

function batchedDaily(reads: BudgetCostReads) {
  let pending: DailyWant[] = []

  const one = async (w: DailyWant) => w.done(await reads.filteredDaily(w.tenantId, w.filter, w.from, w.to, w.charges))

  /** Wants of one tenant, the same tag key (or none: `shape` is then ignored) and shape, `tagKey` lower-cased. */
  async function answer(tagKey: string | null, shape: CellShape, wants: DailyWant[]) {
    if (wants.length < BATCH_FROM) {
      await Promise.all(wants.map(one))
      return
    }
    // Those of a resource group keep only their combinations (their sums need a sort); the others read every value
    // and service (in the tag series' order: no sort), those of a tag alone summing its services.
    const kept: CellShape = shape.resourceGroup
      ? {
          ...shape,
          only: [
            ...new Map(
              wants.map((w) => {
                const combination = [
                  w.filter.tags[0]?.value ?? '',
                  ...(shape.service ? [w.filter.service ?? ''] : []),
                  w.filter.resourceGroup?.toLowerCase() ?? '',
                ]
                return [JSON.stringify(combination), combination]
              }),
            ).values(),
          ],
        }
      : shape
    const from = wants.reduce((m, w) => (w.from < m ? w.from : m), wants[0]!.from)
    const to = wants.reduce((m, w) => (w.to > m ? w.to : m), wants[0]!.to)
    const cells = await reads.scopeCells(wants[0]!.tenantId, tagKey, from, to, kept)
    // The cells as strands: one per group, service, charge category, currency and tag value, with its cost of
    // each day (and whether it had a cell that day), so each want sums whole strands.
    const days = daysBetween(from, to)
    const dayIndex = new Map(days.map((d, i) => [d, i]))
    const strands = new Map<string, Strand>()
    for (const cell of cells) {
      const key = `${cell.resourceGroup}\u0000${cell.service}\u0000${cell.chargeCategory}\u0000${cell.currency}\u0000${cell.tagValue}`
      let strand = strands.get(key)
      if (!strand) {
        strand = {
          resourceGroup: cell.resourceGroup,
          service: cell.service,
          chargeCategory: cell.chargeCategory,
          currency: cell.currency,
          tagValue: cell.tagValue,
          costs: new Float64Array(days.length),
          present: new Uint8Array(days.length),
        }
        strands.set(key, strand)
      }
      const i = dayIndex.get(cell.date)!
      strand.costs[i]! += cell.cost
      strand.present[i] = 1
    }
    const all = [...strands.values()]
    for (const w of wants) {
      const tag = w.filter.tags[0]?.value ?? null
      const group = w.filter.resourceGroup?.toLowerCase() ?? null
      const matching = all.filter(
        (c) =>
          (w.charges === 'usage'
            ? c.chargeCategory === 'Usage'
            : w.charges === 'nonUsage'
              ? c.chargeCategory !== 'Usage'
              : true) &&
          (w.filter.service === null || c.service === w.filter.service) &&
          (group === null || c.resourceGroup === group) &&
          (tag === null || c.tagValue === tag),
      )
      const rows: DailyRows = []
      for (const currency of new Set(matching.map((c) => c.currency))) {
        const ofCurrency = matching.filter((c) => c.currency === currency)
        for (let i = dayIndex.get(w.from)!, last = dayIndex.get(w.to)!; i <= last; i++) {
          let cost = 0
          let present = false
          for (const c of ofCurrency) {
            cost += c.costs[i]!
            present ||= c.present[i] === 1
          }
          if (present) rows.push({ date: days[i]!, currency, cost })
        }
      }
      w.done(rows)
    }
  }

  function flush() {
    const wants = pending
    pending = []
    const groups = new Map<string, { tagKey: string | null; shape: CellShape; wants: DailyWant[] }>()
    for (const w of wants) {
      if (w.filter.tags.length > 1) {
        one(w).catch(w.failed)
        continue
      }
      const tagKey = w.filter.tags[0]?.key.toLowerCase() ?? null
      // A tag alone and a tag with a service are read together, split by service.
      const shape =
        w.filter.resourceGroup === null
          ? { service: true, resourceGroup: false }
          : { service: w.filter.service !== null, resourceGroup: true }
      const key = JSON.stringify([w.tenantId, tagKey, tagKey === null ? null : shape])
      const group = groups.get(key) ?? { tagKey, shape, wants: [] as DailyWant[] }
      group.wants.push(w)
      groups.set(key, group)
    }
    for (const group of groups.values())
      answer(group.tagKey, group.shape, group.wants).catch((err) => {
        for (const w of group.wants) w.failed(err)
      })
  }

  return (tenantId: string, filter: ScopeFilter, from: string, to: string, charges: ChargeSelection) =>
    new Promise<DailyRows>((done, failed) => {
      // The budgets of one evaluation ask in the same turn of the event loop: answered together after it.
      if (pending.length === 0) setImmediate(flush)
      pending.push({ tenantId, filter, from, to, charges, done, failed })
    })
}

/**
 * The costs of budgets' scopes for one read (a page of budgets, an evaluation after a run): each distinct scope,
 * range and charge selection is read once however many budgets share it (and the scopes asked for together in one
 * read of their tenant, see batchedDaily), summed over the scope's tenancies (every tenancy of the organisation
 * for an organisation-wide budget) in the budget's currency.
 */
export function scopeCostsFor(
  reads: BudgetCostReads,
  organisationTenancies: (organisationId: string) => Promise<string[]>,
): ScopeCostsOf {
  const memo = new Map<string, Promise<unknown>>()
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let found = memo.get(key) as Promise<T> | undefined
    if (!found) {
      found = read()
      memo.set(key, found)
    }
    return found
  }
  const filteredDaily = batchedDaily(reads)
  const tenanciesOf = (budget: BudgetDefinition) =>
    budget.scope.tenancyIds
      ? Promise.resolve(budget.scope.tenancyIds)
      : once(`org:${budget.organisationId}`, () => organisationTenancies(budget.organisationId))
  const settled = (tenantId: string) => once(`settled:${tenantId}`, () => reads.settledThrough(tenantId))

  return (budget) => {
    const filter = filterOf(budget)
    const scopeKey = JSON.stringify([budget.organisationId, budget.scope.tenancyIds, filter])
    return {
      daily: (from, to, charges) =>
        once(`daily:${scopeKey}:${budget.currency}:${from}:${to}:${charges}`, async () => {
          const byDay = new Map<string, number>()
          const tenancies = await tenanciesOf(budget)
          const read = await Promise.all(
            tenancies.map((tenantId) =>
              once(`rows:${tenantId}:${JSON.stringify(filter)}:${from}:${to}:${charges}`, () =>
                filteredDaily(tenantId, filter, from, to, charges),
              ),
            ),
          )
          for (const rows of read)
            for (const r of rows)
              if (r.currency === budget.currency) byDay.set(r.date, (byDay.get(r.date) ?? 0) + r.cost)
          return byDay
        }),
      async settledThrough() {
        const days = await Promise.all((await tenanciesOf(budget)).map(settled))
        const known = days.filter((d): d is string => d !== null)
        return known.length ? known.reduce((a, b) => (a < b ? a : b)) : null
      },
      services: (from, to) =>
        once(`services:${scopeKey}:${budget.currency}:${from}:${to}`, async () => {
          const byService = new Map<string, number>()
          for (const tenantId of await tenanciesOf(budget))
            for (const r of await reads.filteredServices(tenantId, filter, from, to))
              if (r.currency === budget.currency) byService.set(r.service, (byService.get(r.service) ?? 0) + r.cost)
          return [...byService].map(([service, cost]) => ({ service, cost })).sort((a, b) => b.cost - a.cost)
        }),
    }
  }
}
