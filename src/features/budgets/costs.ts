import type { ChargeSelection, ScopeFilter } from '../costs/read/index.js'
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

const filterOf = (budget: BudgetDefinition): ScopeFilter => ({
  tags: budget.scope.tags ?? [],
  resourceGroup: budget.scope.resourceGroup ?? null,
  service: budget.scope.service ?? null,
})

/**
 * The costs of budgets' scopes for one read (a page of budgets, an evaluation after a run): each distinct scope,
 * range and charge selection is read once however many budgets share it, summed over the scope's tenancies (every
 * tenancy of the organisation for an organisation-wide budget) in the budget's currency.
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
          for (const tenantId of await tenanciesOf(budget)) {
            const rows = await once(`rows:${tenantId}:${JSON.stringify(filter)}:${from}:${to}:${charges}`, () =>
              reads.filteredDaily(tenantId, filter, from, to, charges),
            )
            for (const r of rows)
              if (r.currency === budget.currency) byDay.set(r.date, (byDay.get(r.date) ?? 0) + r.cost)
          }
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
