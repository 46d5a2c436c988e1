import { call, type Page } from '../../api'

/** The report records of the API (see the Report and ReportRun schemas of the OpenAPI document). */

export type ReportKind = 'CostByDimension' | 'TopResources' | 'AnomalySummary' | 'InsightSavings'
export type Dimension = 'Subscription' | 'ResourceGroup' | 'Service' | 'Resource' | 'Tag'
export type PeriodName = 'MonthToDate' | 'LastMonth' | 'Last30Days' | 'Last90Days' | 'Custom'
export type Frequency = 'Daily' | 'Weekly' | 'Monthly'
export type Weekday = 'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday'
export type RunStatus = 'Queued' | 'Running' | 'Succeeded' | 'Failed'
export type Format = 'csv' | 'pdf' | 'xlsx'

export interface ReportParameters {
  dimension?: Dimension
  tagKey?: string
  top?: number
  count?: number
  period?: PeriodName
  from?: string
  to?: string
}

export interface ReportSchedule {
  frequency: Frequency
  hourUtc: number
  dayOfWeek?: Weekday
  dayOfMonth?: number
}

export interface ReportRun {
  id: string
  reportId: string
  status: RunStatus
  requestedAt: string
  startedAt: string | null
  completedAt: string | null
  periodStart: string | null
  periodEnd: string | null
  rowCount: number | null
  error: { code: string; message: string } | null
}

export interface ReportRunDetail extends ReportRun {
  columns: string[]
  rows: (string | number | null)[][]
  truncated: boolean
}

export interface Report {
  id: string
  name: string
  description: string | null
  kind: ReportKind
  parameters: ReportParameters
  /** null: the whole organisation. */
  tenancyIds: string[] | null
  schedule: ReportSchedule | null
  createdAt: string
  lastRun: ReportRun | null
}

export interface ReportDraft {
  name: string
  description: string | null
  kind: ReportKind
  parameters: ReportParameters
  tenancyIds: string[] | null
  schedule: ReportSchedule | null
}

const path = (reportId: string) => `/reports/${encodeURIComponent(reportId)}`

export const reportsApi = {
  list: (page: number, pageSize: number) => call<Page<Report>>('GET', `/reports?page=${page}&pageSize=${pageSize}`),
  get: (reportId: string) => call<Report>('GET', path(reportId)),
  create: (draft: ReportDraft) => call<Report>('POST', '/reports', draft),
  /** The kind cannot change: it is left out. */
  update: (reportId: string, { kind: _kind, ...draft }: ReportDraft) => call<Report>('PATCH', path(reportId), draft),
  remove: (reportId: string) => call<void>('DELETE', path(reportId)),
  runs: (reportId: string, page: number, pageSize: number) =>
    call<Page<ReportRun>>('GET', `${path(reportId)}/runs?page=${page}&pageSize=${pageSize}`),
  run: (reportId: string, runId: string) =>
    call<ReportRunDetail>('GET', `${path(reportId)}/runs/${encodeURIComponent(runId)}`),
  runNow: (reportId: string) => call<ReportRun>('POST', `${path(reportId)}/runs`),
}

/**
 * A succeeded run's file as a plain link: the browser follows it with the session cookie (a GET needs no CSRF
 * token); the CSV answers with a redirect to its signed URL, the PDF and XLSX with the file.
 */
export function downloadUrl(run: ReportRun, format: Format): string {
  return `/api/app${path(run.reportId)}/runs/${encodeURIComponent(run.id)}/${format}`
}
