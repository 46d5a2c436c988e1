import type { Insertable, Kysely } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import { isUniqueViolation } from '../../platform/db/errors.js'
import type { Database } from '../../platform/db/index.js'
import type { ReportRunsTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { RunColumns, RunStore, RunTable } from '../../platform/runs/store.js'

import { anomaliesRaisedIn } from '../anomalies/public.js'
import { openInsightsOf } from '../insights/public.js'
import { resourceNamesById } from '../inventory/public.js'
import { notInOrganisation, organisationTenancies, tenancyNames } from '../tenants/public.js'

import type { AnomalyLine, InsightLine } from './kinds/types.js'
import type { Format } from './render/document.js'
import type { ReportRecord, ReportRunRecord, ReportSchedule, RunStatus } from './schemas.js'

/** Report runs: the kind's name in run events and metrics, and its table. */
export const REPORT_RUNS: RunTable = { name: 'report', table: 'report_runs' }

/** The report run kind's own columns, beside every run table's (RunColumns). */
export type ReportRunColumns = Omit<Insertable<ReportRunsTable>, keyof RunColumns>

/** A definition as stored, before its last run is added. */
export type ReportDefinition = Omit<ReportRecord, 'lastRun'> & { organisationId: string }

/** An item's organisation and the tenancies it covers (`all`: the whole organisation), for the permission check. */
export interface Coverage {
  organisationId: string
  tenancyIds: string[] | 'all'
}

/** A run's first rows, kept with it for the API (at most 10,000). */
export interface RunPreview {
  columns: string[]
  rows: (string | number | null)[][]
  truncated: boolean
}

type ReportRow = Database['reports']
type RunRow = {
  [K in keyof ReportRunsTable]: ReportRunsTable[K] extends import('kysely').Generated<infer U> ? U : ReportRunsTable[K]
}

function toRunRecord(r: RunRow): ReportRunRecord {
  return {
    id: r.id,
    reportId: r.reportId,
    status: r.status as RunStatus,
    requestedAt: r.requestedAt,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
    rowCount: r.rowCount,
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? '' } : null,
  }
}

const RUN_COLUMNS = [
  'id',
  'reportId',
  'status',
  'requestedAt',
  'startedAt',
  'completedAt',
  'periodStart',
  'periodEnd',
  'rowCount',
  'errorCode',
  'errorMessage',
] as const

export function createReportStore(db: Kysely<Database>, runs: RunStore<ReportRunColumns>) {
  async function tenanciesOf(reportIds: string[]): Promise<Map<string, string[]>> {
    const byReport = new Map<string, string[]>()
    if (reportIds.length === 0) return byReport
    const rows = await db
      .selectFrom('reportTenancies')
      .select(['reportId', 'tenancyId'])
      .where('reportId', 'in', reportIds)
      .orderBy('tenancyId')
      .execute()
    for (const r of rows) byReport.set(r.reportId, [...(byReport.get(r.reportId) ?? []), r.tenancyId])
    return byReport
  }

  async function toDefinitions(rows: ReportRow[]): Promise<ReportDefinition[]> {
    const tenancies = await tenanciesOf(rows.filter((r) => r.organisationWide === 0).map((r) => r.id))
    return rows.map((r) => ({
      id: r.id,
      organisationId: r.organisationId,
      name: r.name,
      description: r.description,
      kind: r.kind,
      parameters: JSON.parse(r.parameters) as Record<string, unknown>,
      tenancyIds: r.organisationWide ? null : (tenancies.get(r.id) ?? []),
      schedule: r.schedule ? (JSON.parse(r.schedule) as ReportSchedule) : null,
      createdAt: r.createdAt,
    }))
  }

  /** The organisation's reports the visibility covers: an organisation-wide one for 'all' only (owners). */
  function visible(organisationId: string, visibility: Visibility) {
    return db
      .selectFrom('reports as r')
      .where('r.organisationId', '=', organisationId)
      .$if(visibility !== 'all', (qb) =>
        qb.where('r.organisationWide', '=', 0).where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('reportTenancies as rt')
                .select('rt.tenancyId')
                .whereRef('rt.reportId', '=', 'r.id')
                // No tenancy at all: every tenancy of a report is outside (PostgreSQL refuses `not in ()`).
                .$if(visibility.length > 0, (q) => q.where('rt.tenancyId', 'not in', visibility as string[])),
            ),
          ),
        ),
      )
  }

  /** A definition, whoever may see it (the run handler and the permission check). */
  async function byId(reportId: string): Promise<ReportDefinition | null> {
    const row = await db.selectFrom('reports').selectAll().where('id', '=', reportId).executeTakeFirst()
    return row ? (await toDefinitions([row]))[0]! : null
  }

  async function coverage(reportId: string): Promise<Coverage | null> {
    const report = await byId(reportId)
    if (!report) return null
    return { organisationId: report.organisationId, tenancyIds: report.tenancyIds ?? 'all' }
  }

  async function runScope(reportId: string, runId: string): Promise<{ tenancyIds: string[] | 'all' } | null> {
    const run = await db
      .selectFrom('reportRuns')
      .select('organisationWide')
      .where('reportId', '=', reportId)
      .where('id', '=', runId)
      .executeTakeFirst()
    if (!run) return null
    if (run.organisationWide) return { tenancyIds: 'all' }
    const rows = await db
      .selectFrom('reportRunTenancies')
      .select('tenancyId')
      .where('runId', '=', runId)
      .orderBy('tenancyId')
      .execute()
    return { tenancyIds: rows.map((r) => r.tenancyId) }
  }

  /**
   * The runs of a report the visibility covers: every tenancy a run covered must be visible, and an
   * organisation-wide run needs 'all' (owners).
   */
  function visibleRuns(reportId: string, visibility: Visibility) {
    return db
      .selectFrom('reportRuns as rr')
      .where('rr.reportId', '=', reportId)
      .$if(visibility !== 'all', (qb) =>
        qb.where('rr.organisationWide', '=', 0).where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('reportRunTenancies as rt')
                .select('rt.tenancyId')
                .whereRef('rt.runId', '=', 'rr.id')
                .where('rt.tenancyId', 'not in', visibility as string[]), // never empty for a scoped key
            ),
          ),
        ),
      )
  }

  async function writeTenancies(trx: Kysely<Database>, reportId: string, tenancyIds: string[] | null) {
    await trx.deleteFrom('reportTenancies').where('reportId', '=', reportId).execute()
    if (tenancyIds?.length)
      await trx
        .insertInto('reportTenancies')
        .values(tenancyIds.map((tenancyId) => ({ reportId, tenancyId })))
        .execute()
  }

  return {
    runs,

    async insert(report: ReportDefinition, trx: Kysely<Database> = db): Promise<void> {
      const write = async (tx: Kysely<Database>) => {
        await tx
          .insertInto('reports')
          .values({
            id: report.id,
            organisationId: report.organisationId,
            name: report.name,
            description: report.description,
            kind: report.kind,
            parameters: JSON.stringify(report.parameters),
            organisationWide: report.tenancyIds === null ? 1 : 0,
            schedule: report.schedule ? JSON.stringify(report.schedule) : null,
            createdAt: report.createdAt,
            updatedAt: report.createdAt,
          })
          .execute()
        await writeTenancies(tx, report.id, report.tenancyIds)
      }
      // Inside the caller's transaction when given one (a new organisation's default reports), else in its own.
      if (trx !== db) await write(trx)
      else await db.transaction().execute(write)
    },

    async update(report: ReportDefinition, updatedAt: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('reports')
          .set({
            name: report.name,
            description: report.description,
            parameters: JSON.stringify(report.parameters),
            organisationWide: report.tenancyIds === null ? 1 : 0,
            schedule: report.schedule ? JSON.stringify(report.schedule) : null,
            updatedAt,
          })
          .where('id', '=', report.id)
          .execute()
        await writeTenancies(tx, report.id, report.tenancyIds)
      })
    },

    /**
     * Removes the definition with its runs; returns the ids of the runs, whose files the caller removes. `also`
     * writes in the same transaction (the audit row).
     */
    async delete(reportId: string, also?: (tx: Kysely<Database>) => Promise<void>): Promise<string[]> {
      return db.transaction().execute(async (tx) => {
        const runIds = await tx.selectFrom('reportRuns').select('id').where('reportId', '=', reportId).execute()
        if (runIds.length)
          await tx
            .deleteFrom('reportRunTenancies')
            .where(
              'runId',
              'in',
              runIds.map((r) => r.id),
            )
            .execute()
        await tx.deleteFrom('reportRuns').where('reportId', '=', reportId).execute()
        await tx.deleteFrom('reportTenancies').where('reportId', '=', reportId).execute()
        await tx.deleteFrom('reports').where('id', '=', reportId).execute()
        await also?.(tx)
        return runIds.map((r) => r.id)
      })
    },

    byId,

    /** What the permission check needs: the organisation and the tenancies covered. */
    coverage,

    /**
     * What the permission check of a run needs: the tenancies its report covers now and those the run covered
     * when it was queued, together (the whole organisation when either is); null when the report has no such run.
     */
    async runCoverage(reportId: string, runId: string): Promise<Coverage | null> {
      const report = await coverage(reportId)
      const scope = report && (await runScope(reportId, runId))
      if (!report || !scope) return null
      if (report.tenancyIds === 'all' || scope.tenancyIds === 'all') return { ...report, tenancyIds: 'all' }
      return { ...report, tenancyIds: [...new Set([...report.tenancyIds, ...scope.tenancyIds])].sort() }
    },

    /** What a run covers, recorded when it was queued: the whole organisation (`all`) or its tenancies. */
    async runScope(runId: string): Promise<{ tenancyIds: string[] | 'all' } | null> {
      const run = await db.selectFrom('reportRuns').select('reportId').where('id', '=', runId).executeTakeFirst()
      return run ? runScope(run.reportId, runId) : null
    },

    /** Ordered by name, id last, so pages never overlap. An organisation keeps tens of reports: counting is cheap. */
    async list(organisationId: string, visibility: Visibility, paging: Paging) {
      const matching = visible(organisationId, visibility)
      const [rows, total] = await Promise.all([
        matching
          .selectAll('r')
          .orderBy('r.name')
          .orderBy('r.id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: await toDefinitions(rows), totalCount: Number(total.n) }
    },

    /** The tenancies of an organisation, for an organisation-wide run. */
    async organisationTenancies(organisationId: string): Promise<{ id: string; name: string }[]> {
      return organisationTenancies(db, organisationId)
    },

    async tenancyNames(ids: string[]): Promise<{ id: string; name: string }[]> {
      return tenancyNames(db, ids)
    },

    /** Of these tenancies, those not of the organisation. */
    async allInOrganisation(organisationId: string, ids: string[]): Promise<string[]> {
      return notInOrganisation(db, organisationId, ids)
    },

    /**
     * Queues a run with what it covers, the report's tenancies (or the whole organisation) as they are now, in one
     * transaction; false when a scheduled run of that report and period exists already (another worker's).
     */
    async queueRun(values: {
      id: string
      reportId: string
      trigger: 'Manual' | 'Scheduled'
      requestedAt: string
      requestedBy: string | null
      scheduledFor?: string | null
    }): Promise<boolean> {
      try {
        await runs.queue(
          {
            id: values.id,
            tenantId: null,
            reportId: values.reportId,
            trigger: values.trigger,
            requestedAt: values.requestedAt,
            requestedBy: values.requestedBy,
            scheduledFor: values.scheduledFor ?? null,
          },
          async (tx) => {
            const t = tx as Kysely<Database>
            await t
              .updateTable('reportRuns')
              .set((eb) => ({
                organisationWide: eb.selectFrom('reports').select('organisationWide').where('id', '=', values.reportId),
              }))
              .where('id', '=', values.id)
              .execute()
            await t
              .insertInto('reportRunTenancies')
              .columns(['runId', 'tenancyId'])
              .expression((eb) =>
                eb
                  .selectFrom('reportTenancies')
                  .select((e) => [e.val(values.id).as('runId'), 'tenancyId'])
                  .where('reportId', '=', values.reportId),
              )
              .execute()
          },
        )
        return true
      } catch (err) {
        if (isUniqueViolation(err)) return false
        throw err
      }
    },

    async run(reportId: string, runId: string): Promise<ReportRunRecord | null> {
      const row = await db
        .selectFrom('reportRuns')
        .select(RUN_COLUMNS)
        .where('reportId', '=', reportId)
        .where('id', '=', runId)
        .executeTakeFirst()
      return row ? toRunRecord(row as RunRow) : null
    },

    /** A run with its preview and the formats of its files. */
    async runDetail(reportId: string, runId: string) {
      const row = await db
        .selectFrom('reportRuns')
        .select([...RUN_COLUMNS, 'preview', 'files'])
        .where('reportId', '=', reportId)
        .where('id', '=', runId)
        .executeTakeFirst()
      if (!row) return null
      return {
        run: toRunRecord(row as RunRow),
        preview: row.preview ? (JSON.parse(row.preview) as RunPreview) : null,
        files: row.files ? (JSON.parse(row.files) as Format[]) : [],
      }
    },

    /** The status of each of these runs this database knows. */
    async runStatuses(runIds: string[]): Promise<Map<string, string>> {
      if (runIds.length === 0) return new Map()
      const rows = await db.selectFrom('reportRuns').select(['id', 'status']).where('id', 'in', runIds).execute()
      return new Map(rows.map((r) => [r.id, r.status]))
    },

    async runById(runId: string) {
      return (await db.selectFrom('reportRuns').selectAll().where('id', '=', runId).executeTakeFirst()) ?? null
    },

    /**
     * The runs the visibility covers, newest first, id last. A report has a run or a few a day: counting them is
     * cheap.
     */
    async listRuns(reportId: string, visibility: Visibility, paging: Paging) {
      const matching = visibleRuns(reportId, visibility)
      const [rows, total] = await Promise.all([
        matching
          .select(RUN_COLUMNS.map((c) => `rr.${c}` as const))
          .orderBy('rr.requestedAt', 'desc')
          .orderBy('rr.id', 'desc')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map((r) => toRunRecord(r as RunRow)), totalCount: Number(total.n) }
    },

    /** The newest run of each report the visibility covers (see listRuns), for the record's `lastRun`. */
    async latestRuns(reportIds: string[], visibility: Visibility): Promise<Map<string, ReportRunRecord>> {
      const latest = new Map<string, ReportRunRecord>()
      if (reportIds.length === 0) return latest
      const rows = await db
        .selectFrom('reportRuns as r')
        .select(RUN_COLUMNS.map((c) => `r.${c}` as const))
        .where('r.reportId', 'in', reportIds)
        .where((eb) =>
          eb(
            'r.id',
            '=',
            eb
              .selectFrom('reportRuns as n')
              .select('n.id')
              .whereRef('n.reportId', '=', 'r.reportId')
              .$if(visibility !== 'all', (qb) =>
                qb.where('n.organisationWide', '=', 0).where(({ not, exists, selectFrom }) =>
                  not(
                    exists(
                      selectFrom('reportRunTenancies as rt')
                        .select('rt.tenancyId')
                        .whereRef('rt.runId', '=', 'n.id')
                        .where('rt.tenancyId', 'not in', visibility as string[]),
                    ),
                  ),
                ),
              )
              .orderBy('n.requestedAt', 'desc')
              .orderBy('n.id', 'desc')
              .limit(1),
          ),
        )
        .execute()
      for (const r of rows) latest.set(r.reportId, toRunRecord(r as RunRow))
      return latest
    },

    /** Every scheduled definition (an organisation keeps tens), for the scheduler. */
    async scheduled(): Promise<{ id: string; schedule: ReportSchedule }[]> {
      const rows = await db.selectFrom('reports').select(['id', 'schedule']).where('schedule', 'is not', null).execute()
      return rows.map((r) => ({ id: r.id, schedule: JSON.parse(r.schedule!) as ReportSchedule }))
    },

    /** Of these reports, those with a run scheduled for `period` already. */
    async scheduledAlready(reportIds: string[], period: string): Promise<Set<string>> {
      if (reportIds.length === 0) return new Set()
      const rows = await db
        .selectFrom('reportRuns')
        .select('reportId')
        .where('reportId', 'in', reportIds)
        .where('scheduledFor', '=', period)
        .execute()
      return new Set(rows.map((r) => r.reportId))
    },
  }
}
export type ReportStore = ReturnType<typeof createReportStore>

/** The last segment of a lower-cased ARM id: a resource's name when the inventory no longer has it. */
function lastSegment(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1) || key
}

/**
 * The anomalies of the tenancies raised from `from` to `to` (both included), with the tenancy's name and the
 * resource's name from the inventory, for the anomaly summary. Read as they stand, statuses included: through the
 * anomalies' store, then the names of their resources through the inventory's, by id in one batch.
 */
export async function anomaliesRaised(
  db: Kysely<Database>,
  tenancyIds: readonly string[],
  from: string,
  to: string,
): Promise<AnomalyLine[]> {
  if (tenancyIds.length === 0) return []
  const names = await namesById(db, tenancyIds)
  const rows = await anomaliesRaisedIn(db, tenancyIds, from, to)
  const resourceNames = await resourceNamesById(
    db,
    rows.flatMap((a) => (a.resourceId === null ? [] : [a.resourceId])),
  )
  return rows.flatMap((a) => {
    const tenancyName = names.get(a.tenantId)
    const resourceName = a.resourceId === null ? undefined : resourceNames.get(a.resourceId)
    return tenancyName === undefined
      ? []
      : [
          {
            tenancyName,
            status: a.status,
            severity: a.severity,
            dateRaised: a.dateRaised,
            scopeKind: a.scopeKind,
            scopeName:
              a.scopeKind === 'Subscription'
                ? (a.subscriptionId ?? '')
                : a.scopeKind === 'ResourceGroup'
                  ? (a.resourceGroupName ?? '')
                  : a.scopeKind === 'Resource'
                    ? (resourceName ?? lastSegment(a.scopeKey))
                    : a.scopeKind === 'Service'
                      ? (a.serviceName ?? '')
                      : '(whole tenancy)',
            subscriptionId: a.subscriptionId,
            expectedCost: Number(a.expectedCost),
            actualCost: Number(a.actualCost),
            impact: Number(a.impact),
            currency: a.currency,
          },
        ]
  })
}

/**
 * The insights of the tenancies open at `asOf` (Active, or snoozed until then at the latest, as the insight list
 * counts them), for the savings summary: through the insights' store.
 */
export async function openInsights(
  db: Kysely<Database>,
  tenancyIds: readonly string[],
  asOf: string,
): Promise<InsightLine[]> {
  if (tenancyIds.length === 0) return []
  const names = await namesById(db, tenancyIds)
  const rows = await openInsightsOf(db, tenancyIds, asOf)
  return rows.flatMap(({ tenantId, ...i }) => {
    const tenancyName = names.get(tenantId)
    return tenancyName === undefined
      ? []
      : [{ ...i, tenancyName, estimatedMonthlySavings: Number(i.estimatedMonthlySavings) }]
  })
}

/** The tenancies' names by id (the tenants store's); a tenancy deleted meanwhile is missing, as a join left it out. */
async function namesById(db: Kysely<Database>, tenancyIds: readonly string[]): Promise<Map<string, string>> {
  return new Map((await tenancyNames(db, tenancyIds)).map((t) => [t.id, t.name]))
}
