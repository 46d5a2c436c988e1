import type { Feature } from '../feature.js'
import { budgetRoutes } from './routes.js'
import {
  BudgetRecord,
  BudgetScope,
  BudgetStatus,
  BudgetThreshold,
  CreateBudgetRequest,
  PatchBudgetRequest,
} from './schemas.js'
import type { BudgetService } from './service.js'

/**
 * Budgets: an amount per period for a scope (tenancies, tags, a resource group, a service), its status from the
 * scope's costs and the forecast model, and thresholds that latch once a period and alert through the alert rules'
 * BudgetThreshold trigger (evaluated in the alert run after each analysis).
 */
export const budgets: Feature<{ budgets: BudgetService }> = {
  name: 'budgets',
  schemas: [BudgetScope, BudgetThreshold, BudgetStatus, BudgetRecord, CreateBudgetRequest, PatchBudgetRequest],
  routes: (api, s) => api.register(budgetRoutes, { budgets: s.budgets }),
}
