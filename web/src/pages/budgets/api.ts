import { answer, client, everyItem, everyOf, type Page, type Schemas } from '../../api'

export type Budget = Schemas['Budget']
export type BudgetInput = Schemas['CreateBudgetRequest']
export type BudgetStatus = NonNullable<Budget['status']>
export type BudgetPeriodKind = Budget['period']
export type CostBasis = Budget['costBasis']
export type Threshold = Budget['thresholds'][number]

/** The choices of the form, in the order it offers them. */
export const PERIOD_KINDS = everyOf<BudgetPeriodKind>()(['Monthly', 'Quarterly', 'Annually', 'Custom'])
export const COST_BASES = everyOf<CostBasis>()(['Effective', 'Billed'])
export const THRESHOLD_KINDS = everyOf<Threshold['kind']>()(['Percent', 'Amount'])
export const THRESHOLD_BASES = everyOf<Threshold['basis']>()(['Actual', 'Forecast'])
/** The most thresholds a budget holds. */
export const MAX_THRESHOLDS = 10

const budget = (budgetId: string) => ({ params: { path: { budgetId } } })

export const budgetsApi = {
  list: (page: number, pageSize: number): Promise<Page<Budget>> =>
    answer(client.GET('/budgets', { params: { query: { page, pageSize } } })),
  /** Every budget the user may see (the explorer looks for those matching its chart). */
  all: () => everyItem(budgetsApi.list),
  get: (budgetId: string) => answer(client.GET('/budgets/{budgetId}', budget(budgetId))),
  create: (input: BudgetInput) => answer(client.POST('/budgets', { body: input })),
  update: (budgetId: string, input: Partial<BudgetInput>) =>
    answer(client.PATCH('/budgets/{budgetId}', { ...budget(budgetId), body: input })),
  remove: (budgetId: string) => answer(client.DELETE('/budgets/{budgetId}', budget(budgetId))),
}
