// The costs feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.

export type { BillingPeriodWrite, SourceFile, StoredBillingPeriod } from './billing-periods.js'
export { FOCUS_SOURCE } from './constants.js'
export type { CostIngest, SourceCoverageWrite } from './ingest.js'
