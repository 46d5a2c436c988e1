import { ref } from '../../platform/http/openapi.js'
import { plannedRoutes } from '../../platform/http/planned.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import { ReportParams, ReportRecord, ReportRunDetail, ReportRunParams, ReportRunRecord } from './schemas.js'

const binary = (type: string) => ({
  200: { description: 'The file.', content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
})

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
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId/csv',
    operationId: 'PublicDownloadReportRunCsv',
    summary: 'Redirects (302) to a signed CSV URL that lives 5 minutes.',
    requires: { itemRole: 'Viewer' },
    params: ReportRunParams,
    ok: { 302: { description: 'Redirect to the signed URL in Location.', type: 'null' } },
    problems: [400, 404, 409],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId/pdf',
    operationId: 'PublicDownloadReportRunPdf',
    summary: 'The run as PDF.',
    requires: { itemRole: 'Viewer' },
    params: ReportRunParams,
    ok: binary('application/pdf'),
    problems: [400, 404, 409],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId/xlsx',
    operationId: 'PublicDownloadReportRunXlsx',
    summary: 'The run as XLSX.',
    requires: { itemRole: 'Viewer' },
    params: ReportRunParams,
    ok: binary('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    problems: [400, 404, 409],
  },
])
