import type { Insertable, Kysely } from 'kysely'
import { isUniqueViolation } from '../../platform/db/errors.js'
import type { Database } from '../../platform/db/index.js'
import type { SnapshotRunsTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { RunColumns, RunStore, RunTable } from '../../platform/runs/store.js'
import type { SnapshotRun } from './schemas.js'

/** Snapshot runs: the kind's name in run events and metrics, and its table. */
export const SNAPSHOT_RUNS: RunTable = { name: 'snapshot', table: 'snapshot_runs' }

/** The snapshot run kind's own columns, beside every run table's (RunColumns). */
export type SnapshotRunColumns = Omit<Insertable<SnapshotRunsTable>, keyof RunColumns>

type RunRow = Database['snapshotRuns'] extends infer T
  ? { [K in keyof T]: T[K] extends import('kysely').Generated<infer U> ? U : T[K] }
  : never

function toRecord(r: RunRow): SnapshotRun {
  return {
    id: r.id,
    tenantId: r.tenantId,
    status: r.status as SnapshotRun['status'],
    deepHistory: r.deepHistory === 1,
    requestedAt: r.requestedAt,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
    stats: {
      subscriptions: r.statSubscriptions,
      resourceGroups: r.statResourceGroups,
      resources: r.statResources,
      costRows: r.statCostRows,
    },
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? '' } : null,
    progress: r.status === 'Running' || r.status === 'Queued' ? r.progress : null,
    trigger: r.trigger as SnapshotRun['trigger'],
    periods: r.periodsJson ? JSON.parse(r.periodsJson) : [],
    conformance: r.conformanceJson ? JSON.parse(r.conformanceJson) : [],
  }
}

export interface NewRun {
  id: string
  tenantId: string
  trigger: 'Manual' | 'Scheduled' | 'Import'
  deepHistory: boolean
  requestedAt: string
  requestedBy: string | null
  scheduledFor?: string | null
  /** A deep run's first day when it is not the usual 30 days back (the demo's longer history). */
  historyFrom?: string
}

/** The snapshot runs' own reads and writes; the life of a run row (queue, claim, outcome) is `runs`'. */
export function createSnapshotStore(db: Kysely<Database>, runs: RunStore<SnapshotRunColumns>) {
  return {
    runs,

    /** Inserts a queued run; null when the tenant already has one queued or running (the partial unique index). */
    async insertQueued(run: NewRun): Promise<SnapshotRun | null> {
      try {
        await runs.queue({
          id: run.id,
          tenantId: run.tenantId,
          trigger: run.trigger,
          scheduledFor: run.scheduledFor ?? null,
          deepHistory: run.deepHistory ? 1 : 0,
          periodStart: run.historyFrom ?? null,
          requestedAt: run.requestedAt,
          requestedBy: run.requestedBy,
        })
      } catch (err) {
        if (isUniqueViolation(err)) return null
        throw err
      }
      return (await this.get(run.tenantId, run.id))!
    },

    async activeRunId(tenantId: string): Promise<string | null> {
      const row = await db
        .selectFrom('snapshotRuns')
        .select('id')
        .where('tenantId', '=', tenantId)
        .where('status', 'in', ['Queued', 'Running'])
        .executeTakeFirst()
      return row?.id ?? null
    },

    async get(tenantId: string, id: string): Promise<SnapshotRun | null> {
      const row = await db
        .selectFrom('snapshotRuns')
        .selectAll()
        .where('tenantId', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toRecord(row) : null
    },

    async byId(id: string) {
      return (await db.selectFrom('snapshotRuns').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    },

    /** Newest first, id last, so pages never overlap. A tenant has a run or two a day: counting them is cheap. */
    async list(tenantId: string, paging: Paging) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('snapshotRuns')
          .selectAll()
          .where('tenantId', '=', tenantId)
          .orderBy('requestedAt', 'desc')
          .orderBy('id', 'desc')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        db
          .selectFrom('snapshotRuns')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenantId', '=', tenantId)
          .executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(toRecord), totalCount: Number(total.n) }
    },

    /** The period end of the tenant's latest successful run, where the next normal run starts. */
    async lastSucceededPeriodEnd(tenantId: string): Promise<string | null> {
      const row = await db
        .selectFrom('snapshotRuns')
        .select('periodEnd')
        .where('tenantId', '=', tenantId)
        .where('status', '=', 'Succeeded')
        .orderBy('completedAt', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row?.periodEnd ?? null
    },

    /** The newest run of each tenant, for the tenant record's `lastSnapshot`. */
    async latestOf(tenantIds: string[]) {
      if (tenantIds.length === 0)
        return new Map<string, { id: string; status: SnapshotRun['status']; completedAt: string | null }>()
      const rows = await db
        .selectFrom('snapshotRuns as r')
        .select(['r.tenantId', 'r.id', 'r.status', 'r.completedAt'])
        .where('r.tenantId', 'in', tenantIds)
        .where((eb) =>
          eb(
            'r.id',
            '=',
            eb
              .selectFrom('snapshotRuns as l')
              .select('l.id')
              .whereRef('l.tenantId', '=', 'r.tenantId')
              .orderBy('l.requestedAt', 'desc')
              .orderBy('l.id', 'desc')
              .limit(1),
          ),
        )
        .execute()
      return new Map(
        rows.map((r) => [
          r.tenantId,
          { id: r.id, status: r.status as SnapshotRun['status'], completedAt: r.completedAt },
        ]),
      )
    },

    /** Of the given tenants, those with a run scheduled for the day already (read whole: a day has one per tenant). */
    async scheduledAlready(tenantIds: string[], day: string): Promise<Set<string>> {
      if (tenantIds.length === 0) return new Set()
      const rows = await db.selectFrom('snapshotRuns').select('tenantId').where('scheduledFor', '=', day).execute()
      return new Set(rows.map((r) => r.tenantId))
    },

    async setPeriod(id: string, periodStart: string, periodEnd: string) {
      await db.updateTable('snapshotRuns').set({ periodStart, periodEnd }).where('id', '=', id).execute()
    },
  }
}
export type SnapshotStore = ReturnType<typeof createSnapshotStore>

/**
 * When the tenant's latest successful collection (not an import) started, or null: the inventory it saw is the
 * tenant's current one. A function over the caller's connection, so that only this store names the table.
 */
export async function latestCollectionStart(db: Kysely<Database>, tenantId: string): Promise<string | null> {
  const row = await db
    .selectFrom('snapshotRuns')
    .select('startedAt')
    .where('tenantId', '=', tenantId)
    .where('status', '=', 'Succeeded')
    .where('trigger', '!=', 'Import')
    .orderBy('completedAt', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.startedAt ?? null
}
