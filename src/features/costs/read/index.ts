/**
 * The read path of cost data: the only code that reads the cost tables (daily_costs, cost_resources and the series
 * and running totals rebuilt from them). Charts, detection, insights, reports and the inventory's records read
 * costs through the object `createCostReads` makes, or the SQL fragments exported here; nothing else names a cost
 * table. The write path is ingest.ts (staging and merge) and rebuild.ts (the series).
 */
import type { Kysely, RawBuilder } from 'kysely'
import type { Database } from '../../../platform/db/index.js'
import { resourceCostBatches } from './batches.js'
import { createCoverageReads } from './coverage.js'
import { billingCurrencies, DEFAULT_CURRENCY } from './currency.js'
import { createOverviewReads } from './overview.js'
import { createSeriesQueries } from './series.js'
import { createTotalsReads } from './totals.js'
import { createUsageReads } from './usage.js'

export { resourceKeyOf } from '../keys.js'
export type { ResourceServiceCost } from './batches.js'
export { ACTIVE_SOURCE_DAYS, type CostCoverage, type SourceCoverage, settledThroughOf } from './coverage.js'
export { currencyOfLatest, DEFAULT_CURRENCY } from './currency.js'
export type { ScopeUsage, TenantCurrencyCost } from './overview.js'
export type {
  CellShape,
  ChargeSelection,
  ScopeCell,
  ScopeFilter,
  SeriesFilter,
  SeriesGrouping,
  SeriesRow,
} from './series.js'
export { type CostTotals, resourceCostBetween, summaryWindows } from './totals.js'
export type { SeriesLevel, StoppedResource, UsageSeries } from './usage.js'

/**
 * What the cost reads need of the inventory, handed in by whoever builds them (costs imports nothing of the
 * inventory, which reads costs): the currency of tenants without cost, and each resource's value of a tag as a
 * subquery its owner writes (inventory/store.ts, `inventoryForCosts`).
 */
export interface InventoryForCosts {
  subscriptionCurrencies(tenantIds: string[]): Promise<Map<string, string>>
  taggedResources(tenantId: string, tagKey: string): RawBuilder<unknown>
}

export function createCostReads(db: Kysely<Database>, inventory: InventoryForCosts) {
  const currencies = (tenantIds: string[]) => billingCurrencies(db, tenantIds, inventory.subscriptionCurrencies)
  return {
    ...createSeriesQueries(db, inventory.taggedResources),
    ...createTotalsReads(db, currencies),
    ...createUsageReads(db, currencies),
    ...createCoverageReads(db),
    ...createOverviewReads(db),
    /** The billing currency of each tenant (see billingCurrencies). */
    billingCurrencies: currencies,
    /** The tenant's billing currency: what a chart with no cost row is shown in. */
    billingCurrency: async (tenantId: string): Promise<string> =>
      (await currencies([tenantId])).get(tenantId) ?? DEFAULT_CURRENCY,
    /** A tenant's costs per resource, service and currency over [from, to], in batches (see resourceCostBatches). */
    resourceCostBatches: (tenantId: string, from: string, to: string, batchRows?: number) =>
      resourceCostBatches(db, tenantId, from, to, batchRows),
  }
}
export type CostReads = ReturnType<typeof createCostReads>
