// The costs feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export {
  billingCurrencies,
  COST_ROWS_WITH_KEYS,
  type CostStore,
  createSeriesQueries,
  type ResourceFacts,
  type ResourceServiceCost,
  resourceCostBatches,
  resourceKeyOf,
  runningTotalsOfSummary,
} from './store.js'
