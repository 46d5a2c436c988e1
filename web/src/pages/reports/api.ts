import { answer, client, type Page, type Schemas } from '../../api'

/**
 * A report's parameters. The document leaves them a free-form object (each kind takes its own, checked by the
 * service and described in words), so they are written here.
 */
export type ReportParameters = {
  dimension?: Dimension
  tagKey?: string
  top?: number
  count?: number
  period?: PeriodName
  from?: string
  to?: string
}
export type Dimension = 'Subscription' | 'ResourceGroup' | 'Service' | 'Resource' | 'Tag'
export type PeriodName = 'MonthToDate' | 'LastMonth' | 'Last30Days' | 'Last90Days' | 'Custom'

/** The report records of the API (the Report and ReportRun schemas of the OpenAPI document). */
export type Report = Omit<Schemas['Report'], 'parameters'> & { parameters: ReportParameters }
export type ReportRun = Schemas['ReportRun']
export type ReportRunDetail = Schemas['ReportRunDetail']
export type ReportSchedule = Schemas['ReportSchedule']
export type ReportKind = Report['kind']
export type Frequency = ReportSchedule['frequency']
export type Weekday = NonNullable<ReportSchedule['dayOfWeek']>
export type RunStatus = ReportRun['status']
export type Format = 'csv' | 'pdf' | 'xlsx'

/** What the report form sends: a new report, or a change of one (whose kind cannot change). */
export interface ReportDraft {
  name: string
  description: string | null
  kind: ReportKind
  parameters: ReportParameters
  tenancyIds: string[] | null
  schedule: ReportSchedule | null
}

const path = (reportId: string) => `/reports/${encodeURIComponent(reportId)}`

const report = (reportId: string) => ({ params: { path: { reportId } } })
const run = (reportId: string, runId: string) => ({ params: { path: { reportId, runId } } })

export const reportsApi = {
  list: (page: number, pageSize: number): Promise<Page<Report>> =>
    answer(client.GET('/reports', { params: { query: { page, pageSize } } })),
  get: (reportId: string): Promise<Report> => answer(client.GET('/reports/{reportId}', report(reportId))),
  create: (draft: ReportDraft): Promise<Report> => answer(client.POST('/reports', { body: draft })),
  /** The kind cannot change: it is left out. */
  update: (reportId: string, { kind: _kind, ...draft }: ReportDraft): Promise<Report> =>
    answer(client.PATCH('/reports/{reportId}', { ...report(reportId), body: draft })),
  remove: (reportId: string) => answer(client.DELETE('/reports/{reportId}', report(reportId))),
  runs: (reportId: string, page: number, pageSize: number) =>
    answer(client.GET('/reports/{reportId}/runs', { params: { path: { reportId }, query: { page, pageSize } } })),
  run: (reportId: string, runId: string) =>
    answer(client.GET('/reports/{reportId}/runs/{runId}', run(reportId, runId))),
  runNow: (reportId: string) => answer(client.POST('/reports/{reportId}/runs', report(reportId))),
}

/**
 * A succeeded run's file as a plain link: the browser follows it with the session cookie (a GET needs no CSRF
 * token); the CSV answers with a redirect to its signed URL, the PDF and XLSX with the file.
 */
export function downloadUrl(run: ReportRun, format: Format): string {
  return `/api/app${path(run.reportId)}/runs/${encodeURIComponent(run.id)}/${format}`
}
