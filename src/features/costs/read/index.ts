/**
 * The read path of cost data: the only code that reads the cost tables (daily_costs, cost_resources and the series
 * and running totals rebuilt from them). Charts, detection, insights, reports and the inventory's records read
 * costs through the object `createCostReads` makes, or the SQL fragments exported here; nothing else names a cost
 * table. The write path is ingest.ts (staging and merge) and rebuild.ts (the series).
 */
import type { Kysely } from 'kysely'
import type { Database, DialectName } from '../../../platform/db/index.js'
import { resourceCostBatches } from './batches.js'
import { billingCurrencies } from './currency.js'
import { createSeriesQueries } from './series.js'
import { createTotalsReads } from './totals.js'
import { createUsageReads } from './usage.js'

export { resourceKeyOf } from '../keys.js'
export type { ResourceServiceCost } from './batches.js'
export { currencyOfLatest, DEFAULT_CURRENCY } from './currency.js'
export type { SeriesFilter, SeriesGrouping, SeriesRow } from './series.js'
export { type CostTotals, resourceCostBetween, summaryWindows } from './totals.js'
export type { SeriesLevel, UsageSeries } from './usage.js'

export function createCostReads(db: Kysely<Database>, dialect: DialectName) {
  const currencies = (tenantIds: string[]) => billingCurrencies(db, tenantIds)
  return {
    ...createSeriesQueries(db, dialect),
    ...createTotalsReads(db, currencies),
    ...createUsageReads(db, currencies),
    /** The billing currency of each tenant (see billingCurrencies). */
    billingCurrencies: currencies,
    /** A tenant's costs per resource, service and currency over [from, to], in batches (see resourceCostBatches). */
    resourceCostBatches: (tenantId: string, from: string, to: string, batchRows?: number) =>
      resourceCostBatches(db, tenantId, from, to, batchRows),
  }
}
export type CostReads = ReturnType<typeof createCostReads>
