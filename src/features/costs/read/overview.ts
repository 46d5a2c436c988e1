import { type Kysely, sql } from 'kysely'
import type { Database } from '../../../platform/db/index.js'

/** One tenant's cost in one currency over a range (see costByCurrency). */
export interface TenantCurrencyCost {
  tenantId: string
  currency: string
  cost: number
}

/** One subscription's, resource group's or service's usage cost in one currency over a range (see scopeUsage). */
export interface ScopeUsage {
  level: 'subscription' | 'resourceGroup' | 'service'
  /** The subscription id, `{subscriptionId}/{group name lower-cased}` or the service name. */
  scopeKey: string
  currency: string
  cost: number
}

/** What the overview reads of costs: totals over a range, from the daily series, never from the raw rows. */
export function createOverviewReads(db: Kysely<Database>) {
  return {
    /**
     * Each tenant's cost per currency over [from, to], every charge category (the bill), from its tenant series:
     * one range of the series' key per tenant. Never summed across currencies: each is a row of its own.
     */
    async costByCurrency(tenantIds: readonly string[], from: string, to: string): Promise<TenantCurrencyCost[]> {
      if (tenantIds.length === 0 || from > to) return []
      const { rows } = await sql<TenantCurrencyCost>`
        select tenant_id as "tenantId", currency, sum(cost) as cost from cost_series
        where level = 'tenant' and tenant_id in (${sql.join([...tenantIds])}) and date >= ${from} and date <= ${to}
        group by tenant_id, currency`.execute(db)
      return rows.map((r) => ({ tenantId: r.tenantId, currency: r.currency, cost: Number(r.cost) }))
    },

    /**
     * The usage cost (charge category Usage: purchases, taxes and credits are no rate) of each subscription, resource
     * group and service of a tenant over [from, to], per currency: a week's daily rate is its sum over 7.
     */
    async scopeUsage(tenantId: string, from: string, to: string): Promise<ScopeUsage[]> {
      if (from > to) return []
      const { rows } = await sql<ScopeUsage>`
        select level, scope_key as "scopeKey", currency, sum(cost) as cost from cost_series
        where tenant_id = ${tenantId} and level in ('subscription', 'resourceGroup', 'service')
          and date >= ${from} and date <= ${to} and charge_category = 'Usage'
        group by level, scope_key, currency`.execute(db)
      return rows.map((r) => ({ level: r.level, scopeKey: r.scopeKey, currency: r.currency, cost: Number(r.cost) }))
    },
  }
}
