import { type Acting, type AuditAction, recordAudit } from '../../platform/audit.js'
import { authoriseSomewhere, hasRole, type Principal } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { toDay } from '../../platform/time.js'
import { customPeriodErrors } from './periods.js'
import type { BudgetScope, CreateBudgetRequest } from './schemas.js'
import type { AuditWrite, BudgetDefinition, BudgetStore } from './store.js'

/** What budgets need to know of tenancies: which of these are not the organisation's. */
export interface BudgetTenancies {
  unknownTenancies(organisationId: string, ids: string[]): Promise<string[]>
}

/** The fields whose change restarts the thresholds' latches: what a threshold is measured against. */
const LATCH_FIELDS = ['period', 'amount', 'periods', 'startDate', 'thresholds', 'scope', 'currency', 'costBasis']

/**
 * Budgets' rules: a whole budget checked (each field's error named), and who may hold it: an owner any budget,
 * an Admin of every tenancy it covers one of those. The status is added by the caller (see status.ts).
 */
export function createBudgetRules(deps: { store: BudgetStore; tenancies: BudgetTenancies; clock: Clock; ids: Ids }) {
  const { store, clock, ids } = deps

  const audited =
    (by: Acting, action: AuditAction, budget: BudgetDefinition, detail: Record<string, string> = {}): AuditWrite =>
    (tx) =>
      recordAudit(tx, ids, {
        organisationId: budget.organisationId,
        at: clock.now().toISOString(),
        by,
        action,
        target: { type: 'Budget', id: budget.id },
        detail: { name: budget.name, ...detail },
      })

  async function validated(who: Principal, draft: BudgetDefinition): Promise<BudgetDefinition> {
    const errors: FieldErrors = {}
    const name = draft.name.trim()
    if (name === '') errors.name = ['must not be empty']
    if (draft.period === 'Custom') {
      if (draft.amount !== null) errors.amount = ['is not taken with period Custom: each of its periods has one']
      if (!draft.periods?.length) errors.periods = ['are needed with period Custom']
      else Object.assign(errors, customPeriodErrors(draft.periods))
    } else {
      if (draft.amount === null) errors.amount = [`is needed with period ${draft.period}`]
      if (draft.periods !== null) errors.periods = ['are only taken with period Custom']
    }
    const scope = draft.scope
    const tenancyIds = scope.tenancyIds ? [...new Set(scope.tenancyIds.map((id) => id.toLowerCase()))].sort() : null
    if (tenancyIds) {
      const unknown = await deps.tenancies.unknownTenancies(who.organisationId, tenancyIds)
      if (unknown.length)
        errors['scope.tenancyIds'] = unknown.map((id) => `${id} is not a tenancy of this organisation`)
    }
    const tags = (scope.tags ?? []).map((t) => ({ key: t.key.trim(), value: t.value }))
    tags.forEach((t, i) => {
      if (t.key === '') errors[`scope.tags.${i}.key`] = ['must not be blank']
    })
    if (Object.keys(errors).length) throw ApiError.invalid(errors)
    if (tenancyIds === null) {
      if (!who.isOwner)
        throw ApiError.forbidden(
          'A budget of the whole organisation (scope.tenancyIds null) needs an organisation owner.',
        )
    } else {
      const short = tenancyIds.find((id) => !hasRole(who, id, 'Admin'))
      if (short)
        throw ApiError.forbidden(`A budget needs the Admin role on every tenancy it covers (${short} included).`)
    }
    const normalScope: BudgetScope = {
      tenancyIds,
      tags,
      resourceGroup: scope.resourceGroup?.trim() || null,
      service: scope.service?.trim() || null,
    }
    return { ...draft, name, scope: normalScope }
  }

  async function own(who: Principal, budgetId: string): Promise<BudgetDefinition> {
    const budget = await store.byId(budgetId)
    if (!budget || budget.organisationId !== who.organisationId) throw ApiError.notFound(`Budget ${budgetId}`)
    return budget
  }

  return {
    own,

    async create(who: Principal, by: Acting, input: CreateBudgetRequest): Promise<BudgetDefinition> {
      authoriseSomewhere(who, 'Admin')
      const now = clock.now().toISOString()
      const budget = await validated(who, {
        id: ids.uuid(),
        organisationId: who.organisationId,
        name: input.name,
        scope: input.scope,
        period: input.period,
        amount: input.amount ?? null,
        periods: input.periods ?? null,
        currency: input.currency,
        // A budget without a start begins with the current month (or the first Custom period).
        startDate: input.startDate ?? input.periods?.[0]?.from ?? `${toDay(clock.now()).slice(0, 7)}-01`,
        costBasis: input.costBasis ?? 'Effective',
        thresholds: input.thresholds ?? [],
        createdAt: now,
        updatedAt: now,
      })
      await store.insert(budget, audited(by, 'budget.created', budget))
      return budget
    },

    async update(
      who: Principal,
      by: Acting,
      budgetId: string,
      input: Partial<CreateBudgetRequest>,
    ): Promise<BudgetDefinition> {
      const current = await own(who, budgetId)
      const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
      const budget = await validated(who, {
        ...current,
        ...defined,
        updatedAt: clock.now().toISOString(),
      } as BudgetDefinition)
      const changed = Object.keys(defined).sort()
      const reset = changed.some((field) => LATCH_FIELDS.includes(field))
      await store.update(budget, audited(by, 'budget.updated', budget, { changed: changed.join(', ') }), reset)
      return budget
    },

    async delete(who: Principal, by: Acting, budgetId: string): Promise<void> {
      const budget = await own(who, budgetId)
      await store.delete(budgetId, audited(by, 'budget.deleted', budget))
    },
  }
}
export type BudgetRules = ReturnType<typeof createBudgetRules>
