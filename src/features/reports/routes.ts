import { ref } from '../../platform/http/openapi.js'
import { plannedRoutes } from '../../platform/http/planned.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import { ReportParams, ReportRecord, ReportRunDetail, ReportRunParams, ReportRunRecord } from './schemas.js'

const binary = (type: string) => ({
  200: { description: 'The file.', content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
})

/** A succeeded run's files: format, operation, summary and success response. */
const DOWNLOADS: [string, string, string, Record<number, unknown>][] = [
  [
    'csv',
    'PublicDownloadReportRunCsv',
    'Redirects (302) to a signed CSV URL that lives 5 minutes.',
    { 302: { description: 'Redirect to the signed URL in Location.', type: 'null' } },
  ],
  ['pdf', 'PublicDownloadReportRunPdf', 'The run as PDF.', binary('application/pdf')],
  [
    'xlsx',
    'PublicDownloadReportRunXlsx',
    'The run as XLSX.',
    binary('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
  ],
]

/**
 * Planned: documented with their final schemas, answering 501 until reports land. A report covers tenancies, so
 * its routes check the item: Viewer to read it, Editor to run it (on every tenancy it covers, once it exists).
 */
export const reportRoutes = plannedRoutes([
  {
    method: 'GET',
    url: '/reports',
    operationId: 'PublicListReports',
    summary: 'Report definitions the key can see.',
    requires: 'any',
    querystring: PageQuery,
    ok: { 200: Page(ref(ReportRecord), 'ReportPage') },
    problems: [400],
  },
  {
    method: 'GET',
    url: '/reports/:reportId',
    operationId: 'PublicGetReport',
    summary: 'One report definition.',
    requires: { itemRole: 'Viewer' },
    params: ReportParams,
    ok: { 200: ref(ReportRecord) },
    problems: [400, 404],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs',
    operationId: 'PublicListReportRuns',
    summary: 'Runs of a report, newest first.',
    requires: { itemRole: 'Viewer' },
    params: ReportParams,
    querystring: PageQuery,
    ok: { 200: Page(ref(ReportRunRecord), 'ReportRunPage') },
    problems: [400, 404],
  },
  {
    method: 'POST',
    url: '/reports/:reportId/runs',
    operationId: 'PublicTriggerReportRun',
    summary: 'Starts a report run (202 with Location).',
    requires: { itemRole: 'Editor' },
    params: ReportParams,
    ok: { 202: ref(ReportRunRecord) },
    problems: [400, 403, 404],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId',
    operationId: 'PublicGetReportRun',
    summary: 'A run with its data.',
    requires: { itemRole: 'Viewer' },
    params: ReportRunParams,
    ok: { 200: ref(ReportRunDetail) },
    problems: [400, 404],
  },
  ...DOWNLOADS.map(([format, operationId, summary, ok]) => ({
    method: 'GET' as const,
    url: `/reports/:reportId/runs/:runId/${format}`,
    operationId,
    summary,
    requires: { itemRole: 'Viewer' as const },
    params: ReportRunParams,
    ok,
    problems: [400, 404, 409],
  })),
])
