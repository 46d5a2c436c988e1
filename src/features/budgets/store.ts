import type { Kysely } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import { chunk } from '../../platform/chunk.js'
import type { Database, Queryable } from '../../platform/db/index.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { CustomPeriod } from './periods.js'
import type { BudgetRecord, BudgetScope, BudgetThreshold } from './schemas.js'

/** A budget as stored: the record without its status, with its organisation. */
export type BudgetDefinition = Omit<BudgetRecord, 'status'> & { organisationId: string }

/** Writes a change's audit row in the change's own transaction. */
export type AuditWrite = (tx: Kysely<Database>) => Promise<void>

type BudgetRow = Database['budgets']

function toDefinition(r: BudgetRow, tenancyIds: string[]): BudgetDefinition {
  const scope = JSON.parse(r.scope) as BudgetScope
  return {
    id: r.id,
    organisationId: r.organisationId,
    name: r.name,
    // The tenancies live in their own table (who may see the budget); the JSON keeps the rest of the scope.
    scope: { ...scope, tenancyIds: scope.tenancyIds === null ? null : tenancyIds },
    period: r.period as BudgetRecord['period'],
    amount: r.amount === null ? null : Number(r.amount),
    periods: r.periods === null ? null : (JSON.parse(r.periods) as CustomPeriod[]),
    currency: r.currency,
    startDate: r.startDate,
    costBasis: r.costBasis as BudgetRecord['costBasis'],
    thresholds: JSON.parse(r.thresholds) as BudgetThreshold[],
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }
}

function toRow(b: BudgetDefinition): BudgetRow {
  return {
    id: b.id,
    organisationId: b.organisationId,
    name: b.name,
    scope: JSON.stringify(b.scope),
    period: b.period,
    amount: b.amount,
    periods: b.periods === null ? null : JSON.stringify(b.periods),
    currency: b.currency,
    startDate: b.startDate,
    costBasis: b.costBasis,
    thresholds: JSON.stringify(b.thresholds),
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  }
}

/** The budgets' reads and writes: the only code that names the budget tables. */
export function createBudgetStore(db: Kysely<Database>) {
  async function tenanciesOf(budgetIds: string[]): Promise<Map<string, string[]>> {
    const byBudget = new Map<string, string[]>()
    for (const part of chunk(budgetIds, 500)) {
      const rows = await db
        .selectFrom('budgetTenancies')
        .select(['budgetId', 'tenancyId'])
        .where('budgetId', 'in', part)
        .orderBy('tenancyId')
        .execute()
      for (const r of rows) byBudget.set(r.budgetId, [...(byBudget.get(r.budgetId) ?? []), r.tenancyId])
    }
    return byBudget
  }

  async function toDefinitions(rows: BudgetRow[]): Promise<BudgetDefinition[]> {
    const tenancies = await tenanciesOf(rows.map((r) => r.id))
    return rows.map((r) => toDefinition(r, tenancies.get(r.id) ?? []))
  }

  /** The organisation's budgets the visibility covers: an organisation-wide one for 'all' only (owners). */
  function visible(organisationId: string, visibility: Visibility) {
    return db
      .selectFrom('budgets as b')
      .where('b.organisationId', '=', organisationId)
      .$if(visibility !== 'all', (qb) =>
        qb
          .where(({ exists, selectFrom }) =>
            exists(selectFrom('budgetTenancies as t').select('t.tenancyId').whereRef('t.budgetId', '=', 'b.id')),
          )
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('budgetTenancies as t')
                  .select('t.tenancyId')
                  .whereRef('t.budgetId', '=', 'b.id')
                  .$if(visibility.length > 0, (q) => q.where('t.tenancyId', 'not in', visibility as string[])),
              ),
            ),
          ),
      )
  }

  async function writeTenancies(tx: Kysely<Database>, budgetId: string, tenancyIds: string[] | null) {
    await tx.deleteFrom('budgetTenancies').where('budgetId', '=', budgetId).execute()
    if (tenancyIds?.length)
      await tx
        .insertInto('budgetTenancies')
        .values(tenancyIds.map((tenancyId) => ({ budgetId, tenancyId })))
        .execute()
  }

  async function byId(budgetId: string): Promise<BudgetDefinition | null> {
    const row = await db.selectFrom('budgets').selectAll().where('id', '=', budgetId).executeTakeFirst()
    return row ? (await toDefinitions([row]))[0]! : null
  }

  return {
    byId,

    async insert(budget: BudgetDefinition, audit: AuditWrite): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('budgets').values(toRow(budget)).execute()
        await writeTenancies(tx, budget.id, budget.scope.tenancyIds)
        await audit(tx)
      })
    },

    /** A change of amount, period or thresholds restarts the latches: the states of the budget are cleared. */
    async update(budget: BudgetDefinition, audit: AuditWrite, resetLatches: boolean): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const { id: _id, organisationId: _o, createdAt: _c, ...changes } = toRow(budget)
        await tx.updateTable('budgets').set(changes).where('id', '=', budget.id).execute()
        await writeTenancies(tx, budget.id, budget.scope.tenancyIds)
        if (resetLatches) await tx.deleteFrom('budgetThresholdStates').where('budgetId', '=', budget.id).execute()
        await audit(tx)
      })
    },

    async delete(budgetId: string, audit: AuditWrite): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('budgetThresholdStates').where('budgetId', '=', budgetId).execute()
        await tx.deleteFrom('budgetTenancies').where('budgetId', '=', budgetId).execute()
        await tx.deleteFrom('budgets').where('id', '=', budgetId).execute()
        await audit(tx)
      })
    },

    /** What the permission check needs: the organisation and the tenancies covered. */
    async coverage(budgetId: string): Promise<{ organisationId: string; tenancyIds: string[] | 'all' } | null> {
      const budget = await byId(budgetId)
      return budget ? { organisationId: budget.organisationId, tenancyIds: budget.scope.tenancyIds ?? 'all' } : null
    },

    /** Ordered by name, id last. */
    async list(organisationId: string, visibility: Visibility, paging: Paging) {
      const matching = visible(organisationId, visibility)
      const [rows, total] = await Promise.all([
        matching
          .selectAll('b')
          .orderBy('b.name')
          .orderBy('b.id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: await toDefinitions(rows), totalCount: Number(total.n) }
    },

    /** Every budget of the organisation the visibility covers, by name: the budgets at risk read them all. */
    async allVisible(organisationId: string, visibility: Visibility): Promise<BudgetDefinition[]> {
      const rows = await visible(organisationId, visibility).selectAll('b').orderBy('b.name').orderBy('b.id').execute()
      return toDefinitions(rows)
    },

    /** The organisation's budgets that cover a tenancy (those of the whole organisation included): an evaluation. */
    async covering(organisationId: string, tenancyId: string): Promise<BudgetDefinition[]> {
      const rows = await db
        .selectFrom('budgets as b')
        .selectAll('b')
        .where('b.organisationId', '=', organisationId)
        .where(({ or, not, exists, selectFrom }) =>
          or([
            not(exists(selectFrom('budgetTenancies as t').select('t.tenancyId').whereRef('t.budgetId', '=', 'b.id'))),
            exists(
              selectFrom('budgetTenancies as t')
                .select('t.tenancyId')
                .whereRef('t.budgetId', '=', 'b.id')
                .where('t.tenancyId', '=', tenancyId),
            ),
          ]),
        )
        .orderBy('b.id')
        .execute()
      return toDefinitions(rows)
    },

    /** Of these ids, those that are no budget of the organisation. */
    async notOf(organisationId: string, budgetIds: readonly string[]): Promise<string[]> {
      if (budgetIds.length === 0) return []
      const found = await db
        .selectFrom('budgets')
        .select('id')
        .where('organisationId', '=', organisationId)
        .where('id', 'in', [...budgetIds])
        .execute()
      const known = new Set(found.map((r) => r.id))
      return budgetIds.filter((id) => !known.has(id))
    },

    /** Whether the organisation of a tenancy has a budget: its analyses are then evaluated (in `tx`). */
    async anyOf(tx: Queryable, organisationId: string): Promise<boolean> {
      const row = await (tx as Kysely<Database>)
        .selectFrom('budgets')
        .select('id')
        .where('organisationId', '=', organisationId)
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },

    /** The thresholds that alarmed in each budget's current period, by index, with the day each did. */
    async latchedIn(periods: { budgetId: string; periodFrom: string }[]): Promise<Map<string, Map<number, string>>> {
      const wanted = new Map(periods.map((p) => [p.budgetId, p.periodFrom]))
      const byBudget = new Map<string, Map<number, string>>()
      for (const part of chunk([...wanted.keys()], 500)) {
        const rows = await db
          .selectFrom('budgetThresholdStates')
          .select(['budgetId', 'thresholdIndex', 'periodFrom', 'since'])
          .where('budgetId', 'in', part)
          .execute()
        for (const r of rows) {
          if (wanted.get(r.budgetId) !== r.periodFrom) continue
          const states = byBudget.get(r.budgetId) ?? new Map<number, string>()
          states.set(Number(r.thresholdIndex), r.since)
          byBudget.set(r.budgetId, states)
        }
      }
      return byBudget
    },

    /**
     * Latches the thresholds that crossed, once a period: answers those newly latched (a concurrent evaluation
     * that latched one first keeps it, and this one sends nothing for it).
     */
    async latch(
      tx: Queryable,
      budgetId: string,
      periodFrom: string,
      crossed: { index: number; since: string }[],
    ): Promise<number[]> {
      const latched: number[] = []
      for (const c of crossed) {
        const inserted = await (tx as Kysely<Database>)
          .insertInto('budgetThresholdStates')
          .values({ budgetId, thresholdIndex: c.index, periodFrom, since: c.since })
          .onConflict((oc) => oc.columns(['budgetId', 'thresholdIndex', 'periodFrom']).doNothing())
          .executeTakeFirst()
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) latched.push(c.index)
      }
      return latched
    },
  }
}
export type BudgetStore = ReturnType<typeof createBudgetStore>
