import { type Acting, type AuditAction, recordAudit } from '../../platform/audit.js'
import { authoriseSomewhere, hasRole, type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import { addDays, dayCount, toDay } from '../../platform/time.js'
import { type BudgetCostReads, type ScopeCostsOf, scopeCostsFor } from './costs.js'
import { periodStatus } from './evaluate.js'
import { type BudgetPeriod, customPeriodErrors, periodOf } from './periods.js'
import type { BudgetRecord, BudgetScope, CreateBudgetRequest } from './schemas.js'
import type { BudgetFigures } from './status.js'
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
      const defined: Record<string, unknown> = Object.fromEntries(
        Object.entries(input).filter(([, v]) => v !== undefined),
      )
      // A change to or from Custom drops what the new kind does not take, unless the change names it.
      if (defined.period === 'Custom' && !('amount' in defined)) defined.amount = null
      if (defined.period !== undefined && defined.period !== 'Custom' && !('periods' in defined)) defined.periods = null
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

/** A budget at risk: its forecast at the period end reaches the amount (see the overview). */
export interface BudgetAtRisk {
  budgetId: string
  name: string
  breachDate: string
  percent: number
  amount: number
  currency: string
}

/**
 * The budgets' API: the rules (create, update, delete) and every read with the status of the current period,
 * computed from the scope's costs as of today (each distinct scope read once per request).
 */
export function createBudgetService(deps: {
  store: BudgetStore
  tenancies: BudgetTenancies & { organisationTenancies(organisationId: string): Promise<string[]> }
  costs: BudgetCostReads
  /** The markers of a tenancy's chart over [from, to] (days), oldest first. */
  markers(tenancyId: string, from: string, to: string): Promise<BudgetMarker[]>
  clock: Clock
  ids: Ids
}) {
  const { store, clock } = deps
  const rules = createBudgetRules(deps)
  const costsForOneRead = () => scopeCostsFor(deps.costs, deps.tenancies.organisationTenancies)

  /** The budgets with their current period's status, latches read in one query. */
  async function withStatus(budgets: BudgetDefinition[], costsOf: ScopeCostsOf = costsForOneRead()) {
    const today = toDay(clock.now())
    const periods = budgets.flatMap((b) => {
      const period = periodOf(b, today)
      return period ? [{ budgetId: b.id, periodFrom: period.from }] : []
    })
    const latched = await store.latchedIn(periods)
    return Promise.all(
      budgets.map(async (budget) => {
        const states = latched.get(budget.id) ?? new Map<number, string>()
        const evaluated = await periodStatus(budget, today, costsOf(budget), states)
        return { budget, evaluated, latched: states }
      }),
    )
  }

  const toRecord = ({ budget, evaluated }: Awaited<ReturnType<typeof withStatus>>[number]): BudgetRecord => {
    const { organisationId: _o, ...rest } = budget
    return { ...rest, status: evaluated?.status ?? null }
  }
  const one = async (budget: BudgetDefinition) => toRecord((await withStatus([budget]))[0]!)

  /** Of these budgets, those whose forecast reaches their amount this period, by breach date. */
  async function atRiskOf(budgets: BudgetDefinition[]): Promise<BudgetAtRisk[]> {
    return (await withStatus(budgets))
      .flatMap(({ budget, evaluated }) =>
        evaluated?.status.breachDate
          ? [
              {
                budgetId: budget.id,
                name: budget.name,
                breachDate: evaluated.status.breachDate,
                percent: Math.round((1000 * evaluated.figures.forecast.expected) / evaluated.period.amount) / 10,
                amount: evaluated.period.amount,
                currency: budget.currency,
              },
            ]
          : [],
      )
      .sort((a, b) => a.breachDate.localeCompare(b.breachDate) || a.name.localeCompare(b.name))
  }

  return {
    /** The tenancies a budget covers, for the permission check of its paths (null: unknown). */
    coverage: (budgetId: string) => store.coverage(budgetId),

    async list(who: Principal, paging: Paging): Promise<PageOf<BudgetRecord>> {
      const { items, totalCount } = await store.list(who.organisationId, visibleTenancies(who), paging)
      return pageOf((await withStatus(items)).map(toRecord), totalCount, paging)
    },

    /** The route checked that the principal sees the budget (every tenancy it covers). */
    async get(who: Principal, budgetId: string): Promise<BudgetRecord> {
      return one(await rules.own(who, budgetId))
    },

    create: async (who: Principal, by: Acting, input: CreateBudgetRequest) => one(await rules.create(who, by, input)),
    update: async (who: Principal, by: Acting, budgetId: string, input: Partial<CreateBudgetRequest>) =>
      one(await rules.update(who, by, budgetId, input)),
    delete: rules.delete,

    /**
     * The budgets the principal sees whose forecast reaches their amount this period, by breach date (narrowed to
     * those covering `tenancyId` when given).
     */
    async atRisk(who: Principal, filter: { tenancyId?: string }): Promise<BudgetAtRisk[]> {
      const budgets = (await store.allVisible(who.organisationId, visibleTenancies(who))).filter(
        (b) => !filter.tenancyId || b.scope.tenancyIds === null || b.scope.tenancyIds.includes(filter.tenancyId),
      )
      return atRiskOf(budgets)
    },

    /** The budgets at risk among those whose tenancies are all in `tenancyIds` (null: every budget): a digest's. */
    async atRiskWithin(organisationId: string, tenancyIds: readonly string[] | null): Promise<BudgetAtRisk[]> {
      const budgets = (await store.allVisible(organisationId, tenancyIds === null ? 'all' : [...tenancyIds])).filter(
        (b) => tenancyIds === null || b.scope.tenancyIds !== null,
      )
      return atRiskOf(budgets)
    },

    /**
     * After an analysis of a tenancy: the status of every budget covering it, with the thresholds crossed now
     * that this period has not latched yet. The caller latches them in its own transaction and alerts about
     * those it latched first.
     */
    async evaluateAfter(organisationId: string, tenancyId: string): Promise<BudgetEvaluation[]> {
      const costsOf = costsForOneRead()
      const evaluated = await withStatus(await store.covering(organisationId, tenancyId), costsOf)
      return evaluated.flatMap(({ budget, evaluated, latched }) => {
        if (!evaluated) return []
        const crossings = evaluated.status.thresholds.flatMap((t, index) =>
          t.state === 'Alarm' && t.since !== null && !latched.has(index) ? [{ index, since: t.since }] : [],
        )
        return crossings.length ? [{ budget, ...evaluated, crossings, costs: costsOf(budget) }] : []
      })
    },

    /**
     * What an alert about a budget says of it: the services that drove its spend this period against as many days
     * of the period before (largest change first), and the markers since the period began on its tenancies (those
     * tagged otherwise than the budget left out).
     */
    async explain(evaluation: BudgetEvaluation, tenancyIds: readonly string[]) {
      const { budget, period, status } = evaluation
      const through = status.periodTo < evaluation.actualThrough ? status.periodTo : evaluation.actualThrough
      const days = dayCount(period.from, through)
      const before = periodOf(budget, addDays(period.from, -1))
      const [now, then] = await Promise.all([
        evaluation.costs.services(period.from, through),
        before
          ? evaluation.costs.services(before.from, addDays(before.from, days - 1))
          : Promise.resolve([] as { service: string; cost: number }[]),
      ])
      const previous = new Map(then.map((s) => [s.service, s.cost]))
      const drivers = [...new Set([...now.map((s) => s.service), ...previous.keys()])]
        .map((service) => {
          const cost = now.find((s) => s.service === service)?.cost ?? 0
          return { service, cost, previous: previous.get(service) ?? 0, change: cost - (previous.get(service) ?? 0) }
        })
        .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.service.localeCompare(b.service))
        .slice(0, MAX_DRIVERS)
      const tags = budget.scope.tags ?? []
      const markers = (await Promise.all(tenancyIds.map((id) => deps.markers(id, period.from, through))))
        .flat()
        .filter(
          (m) =>
            m.tagKey === null ||
            tags.some((t) => t.key.toLowerCase() === m.tagKey!.toLowerCase() && t.value === m.tagValue),
        )
        .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
        .slice(-MAX_MARKERS)
      return { drivers, markers, comparedDays: before ? days : 0 }
    },

    latch: store.latch,
    /** Of these ids, those that are no budget of the organisation (a rule naming budgets). */
    unknownBudgets: store.notOf,
  }
}

const MAX_DRIVERS = 5
const MAX_MARKERS = 5

/** A marker as a budget alert lists it. */
export interface BudgetMarker {
  id: string
  title: string
  category: string
  occurredAt: string
  tagKey: string | null
  tagValue: string | null
}
export type BudgetService = ReturnType<typeof createBudgetService>
/** A budget evaluated after an analysis, with the thresholds it crossed that its period has not latched. */
export interface BudgetEvaluation {
  budget: BudgetDefinition
  period: BudgetPeriod
  figures: BudgetFigures
  status: NonNullable<BudgetRecord['status']>
  actualThrough: string
  crossings: { index: number; since: string }[]
  costs: ReturnType<ScopeCostsOf>
}
