import type { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { type Acting, recordAudit } from '../../platform/audit.js'
import { type Principal, type Visibility, visibleTenancies } from '../../platform/auth/principal.js'
import type { UrlSigner } from '../../platform/blobs/signing.js'
import type { BlobStore } from '../../platform/blobs/store.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { Database } from '../../platform/db/index.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import { queueScheduled } from '../../platform/runs/schedule.js'
import { REPORT_KINDS } from './kinds/index.js'
import { FORMATS, type Format } from './render/document.js'
import { fileKey } from './run.js'
import { checkSchedule, dueDay } from './schedule.js'
import type {
  CreateReportRequest,
  PatchReportRequest,
  ReportRecord,
  ReportRunDetail,
  ReportRunRecord,
  ReportSchedule,
} from './schemas.js'
import type { ReportDefinition, ReportStore } from './store.js'

/** The path of the signed download of a run's file (needs no key: the signature is the permission). */
export const SIGNED_FILES_PATH = '/api/public/v1/report-files'

/** The reports every new organisation starts with: organisation-wide, so its owners see them from day one. */
export const DEFAULT_REPORTS: Pick<CreateReportRequest, 'name' | 'description' | 'kind' | 'parameters'>[] = [
  {
    name: 'Cost by service, last month',
    description: 'What each cloud service cost in the last full month, largest first.',
    kind: 'CostByDimension',
    parameters: { dimension: 'Service', period: 'LastMonth' },
  },
  {
    name: 'Cost by subscription, month to date',
    description: 'Spend of each subscription since the start of the month.',
    kind: 'CostByDimension',
    parameters: { dimension: 'Subscription', period: 'MonthToDate' },
  },
  {
    name: 'Cost by resource group, last 30 days',
    description: null,
    kind: 'CostByDimension',
    parameters: { dimension: 'ResourceGroup', period: 'Last30Days' },
  },
  {
    name: 'Top 20 resources, last 30 days',
    description: 'The most expensive resources, ranked.',
    kind: 'TopResources',
    parameters: { count: 20, period: 'Last30Days' },
  },
]

/** `Cost by service, last month` as `cost-by-service-last-month`: a file name any system accepts. */
function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '-')
      .slice(0, 80) || 'report'
  )
}

export function createReportService(deps: {
  store: ReportStore
  blobs: BlobStore
  signer: UrlSigner
  publicUrl: string
  clock: Clock
  ids: Ids
}) {
  const { store, blobs, signer, clock, ids } = deps

  /** The definitions with their latest run among those `visibility` may see (see listRuns). */
  async function decorate(definitions: ReportDefinition[], visibility: Visibility = 'all'): Promise<ReportRecord[]> {
    const latest = await store.latestRuns(
      definitions.map((d) => d.id),
      visibility,
    )
    return definitions.map(({ organisationId: _o, ...d }) => ({ ...d, lastRun: latest.get(d.id) ?? null }))
  }

  /** A definition of the owner's organisation, for the owner-only changes (the route checked the owner). */
  async function ownReport(who: Principal, reportId: string): Promise<ReportDefinition> {
    const report = await store.byId(reportId)
    if (!report || report.organisationId !== who.organisationId) throw ApiError.notFound(`Report ${reportId}`)
    return report
  }

  /** Checks a definition as a whole; throws the field errors. */
  async function validated(organisationId: string, draft: ReportDefinition): Promise<ReportDefinition> {
    const errors: FieldErrors = {}
    const name = draft.name.trim()
    if (name === '') errors.name = ['must not be empty']
    const kind = REPORT_KINDS[draft.kind]
    let parameters = draft.parameters
    if (!kind) errors.kind = [`must be one of: ${Object.keys(REPORT_KINDS).join(', ')}`]
    else {
      const parsed = kind.parse(draft.parameters)
      if (parsed.ok) parameters = parsed.value as Record<string, unknown>
      else Object.assign(errors, parsed.errors)
    }
    const tenancyIds = draft.tenancyIds ? [...new Set(draft.tenancyIds.map((id) => id.toLowerCase()))].sort() : null
    if (tenancyIds) {
      // Another organisation's tenancy is named exactly like an unknown one.
      const unknown = await store.allInOrganisation(organisationId, tenancyIds)
      if (unknown.length) errors.tenancyIds = unknown.map((id) => `${id} is not a tenancy of this organisation`)
    }
    checkSchedule(draft.schedule, errors)
    if (Object.keys(errors).length) throw ApiError.invalid(errors)
    const description = draft.description?.trim() || null
    return { ...draft, name, description, parameters, tenancyIds }
  }

  async function succeededRun(reportId: string, runId: string) {
    const detail = await store.runDetail(reportId, runId)
    if (!detail) throw ApiError.notFound(`Run ${runId} of report ${reportId}`)
    if (detail.run.status !== 'Succeeded')
      throw ApiError.conflict(`Run ${runId} is ${detail.run.status}: its files exist once it has succeeded.`, {
        runStatus: detail.run.status,
      })
    return detail.run
  }

  function fileName(report: ReportDefinition, run: ReportRunRecord, format: Format): string {
    return `${slug(report.name)}-${run.periodStart}-to-${run.periodEnd}.${FORMATS[format].extension}`
  }

  return {
    /** The tenancies a report covers, and a run of it, for the permission checks of their paths (null: unknown). */
    coverage: (reportId: string) => store.coverage(reportId),
    runCoverage: (reportId: string, runId: string) => store.runCoverage(reportId, runId),

    async list(who: Principal, paging: Paging): Promise<PageOf<ReportRecord>> {
      const { items, totalCount } = await store.list(who.organisationId, visibleTenancies(who), paging)
      return pageOf(await decorate(items, visibleTenancies(who)), totalCount, paging)
    },

    /** The route checked that the key sees the report (every tenancy it covers). */
    async get(who: Principal, reportId: string): Promise<ReportRecord> {
      const report = await store.byId(reportId)
      if (!report) throw ApiError.notFound(`Report ${reportId}`)
      return (await decorate([report], visibleTenancies(who)))[0]!
    },

    async create(who: Principal, input: CreateReportRequest): Promise<ReportRecord> {
      const report = await validated(who.organisationId, {
        id: ids.uuid(),
        organisationId: who.organisationId,
        name: input.name,
        description: input.description ?? null,
        kind: input.kind,
        parameters: input.parameters ?? {},
        tenancyIds: input.tenancyIds,
        schedule: input.schedule ?? null,
        createdAt: clock.now().toISOString(),
      })
      await store.insert(report)
      return (await decorate([report]))[0]!
    },

    /** The default set of a new organisation, in the transaction that creates it. */
    async createDefaults(trx: Kysely<Database>, organisationId: string, createdAt: string): Promise<void> {
      for (const preset of DEFAULT_REPORTS) {
        const parsed = REPORT_KINDS[preset.kind]!.parse(preset.parameters ?? {})
        if (!parsed.ok) throw new Error(`Default report ${preset.name} has bad parameters`)
        await store.insert(
          {
            id: ids.uuid(),
            organisationId,
            name: preset.name,
            description: preset.description ?? null,
            kind: preset.kind,
            parameters: parsed.value as Record<string, unknown>,
            tenancyIds: null,
            schedule: null,
            createdAt,
          },
          trx,
        )
      }
    },

    async update(who: Principal, reportId: string, input: PatchReportRequest): Promise<ReportRecord> {
      const current = await ownReport(who, reportId)
      const report = await validated(who.organisationId, {
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.parameters !== undefined ? { parameters: input.parameters } : {}),
        ...(input.tenancyIds !== undefined ? { tenancyIds: input.tenancyIds } : {}),
        ...(input.schedule !== undefined ? { schedule: input.schedule } : {}),
      })
      await store.update(report, clock.now().toISOString())
      return (await decorate([report]))[0]!
    },

    /** Removes the definition, its runs and their files; the audit log records who did, from where. */
    async delete(who: Principal, by: Acting, reportId: string): Promise<void> {
      const report = await ownReport(who, reportId)
      const runIds = await store.delete(reportId, (tx) =>
        recordAudit(tx, ids, {
          organisationId: report.organisationId,
          at: clock.now().toISOString(),
          by,
          action: 'report.deleted',
          target: { type: 'Report', id: report.id },
          detail: { name: report.name, kind: report.kind },
        }),
      )
      for (const runId of runIds) await blobs.deletePrefix(`report-runs/${runId}`)
    },

    /** A definition of the owner's organisation (the command line acts as an owner of the organisation it names). */
    owned: ownReport,

    /** Queues a run (the route checked Editor on every tenancy the report covers). */
    async trigger(who: Principal, reportId: string): Promise<ReportRunRecord> {
      const id = ids.uuid()
      await store.queueRun({
        id,
        reportId,
        trigger: 'Manual',
        requestedAt: clock.now().toISOString(),
        requestedBy: who.actor.id,
      })
      return (await store.run(reportId, id))!
    },

    /**
     * The runs whose tenancies (recorded when each was queued) the principal sees: a run made before the report
     * was narrowed is not listed to whom sees the narrower report alone.
     */
    async listRuns(who: Principal, reportId: string, paging: Paging): Promise<PageOf<ReportRunRecord>> {
      const { items, totalCount } = await store.listRuns(reportId, visibleTenancies(who), paging)
      return pageOf(items, totalCount, paging)
    },

    async getRun(reportId: string, runId: string): Promise<ReportRunDetail> {
      const detail = await store.runDetail(reportId, runId)
      if (!detail) throw ApiError.notFound(`Run ${runId} of report ${reportId}`)
      const preview = detail.preview ?? { columns: [], rows: [], truncated: false }
      return { ...detail.run, ...preview }
    },

    /** The signed URL of a succeeded run's CSV on the public URL; 409 before the run succeeded. */
    async csvUrl(reportId: string, runId: string): Promise<string> {
      const run = await succeededRun(reportId, runId)
      const report = (await store.byId(reportId))!
      return `${deps.publicUrl}${signer.sign(`${SIGNED_FILES_PATH}/${runId}/${fileName(report, run, 'csv')}`)}`
    },

    /** A succeeded run's file with how to serve it; 409 before the run succeeded. */
    async file(reportId: string, runId: string, format: Format) {
      const run = await succeededRun(reportId, runId)
      const report = (await store.byId(reportId))!
      const blob = await blobs.get(fileKey(runId, format))
      if (!blob) throw new Error(`The ${format} file of run ${runId} is missing from ${blobs.location}`)
      return { ...blob, contentType: FORMATS[format].contentType, fileName: fileName(report, run, format) }
    },

    /**
     * The file a signed URL names, when the signature matches its path and has not expired; otherwise one 403
     * for every cause (tampered, expired, unknown run), so the URL tells nothing more.
     */
    async signedFile(
      path: string,
      runId: string,
      expires: string | undefined,
      signature: string | undefined,
    ): Promise<{ body: Readable; size: number; contentType: string; fileName: string }> {
      const denied = () =>
        new ApiError(403, 'forbidden', 'The download link is invalid or has expired.', {
          detail: 'Ask the API for a new link: GET .../reports/{reportId}/runs/{runId}/csv.',
        })
      if (!signer.verify(path, expires, signature)) throw denied()
      const blob = await blobs.get(fileKey(runId, 'csv'))
      if (!blob) throw denied()
      return { ...blob, contentType: FORMATS.csv.contentType, fileName: path.slice(path.lastIndexOf('/') + 1) }
    },

    /** Queues the runs of schedules whose time has come in their current period; each once, however many workers. */
    async scheduleDue(now: Date): Promise<number> {
      const due = new Map<string, string[]>()
      for (const { id, schedule } of await store.scheduled()) {
        const day = dueDay(schedule as ReportSchedule, now)
        if (day) due.set(day, [...(due.get(day) ?? []), id])
      }
      return queueScheduled(due, store.scheduledAlready, (reportId, day) =>
        store.queueRun({
          id: ids.uuid(),
          reportId,
          trigger: 'Scheduled',
          requestedAt: now.toISOString(),
          requestedBy: null,
          scheduledFor: day,
        }),
      )
    },
  }
}
export type ReportService = ReturnType<typeof createReportService>
