// The budgets feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export type { BudgetRecord, BudgetThreshold } from './schemas.js'
export type { BudgetAtRisk, BudgetEvaluation, BudgetMarker, BudgetService } from './service.js'
export type { BudgetDefinition } from './store.js'
