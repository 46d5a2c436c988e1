import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ItemCoverage } from '../../platform/auth/principal.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import { FORMATS, type Format } from './render/document.js'
import {
  CreateReportRequest,
  PatchReportRequest,
  ReportParams,
  ReportRecord,
  ReportRunDetail,
  ReportRunParams,
  ReportRunRecord,
  SignedFileParams,
  SignedFileQuery,
} from './schemas.js'
import { type ReportService, SIGNED_FILES_PATH } from './service.js'

const API = '/api/public/v1'

const binary = (type: string, what: string) => ({
  200: {
    description: `${what}, with Content-Disposition: attachment and a file name.`,
    content: { [type]: { schema: { type: 'string', format: 'binary' } } },
  },
})
const deleted = { 204: { description: 'Deleted with its runs and their files.', type: 'null' } }

/**
 * Reports cover tenancies: a key sees a report when it sees every tenancy the report covers (an
 * organisation-wide one: owners only), and runs it with Editor on each of them.
 */
export const reportRoutes: FastifyPluginAsyncTypebox<{ reports: ReportService }> = async (app, { reports }) => {
  const report: ItemCoverage = {
    describe: (params) => `Report ${params.reportId}`,
    coverageOf: (params) => reports.coverage(params.reportId!),
  }
  const viewer = { tenancyRole: 'Viewer' as const, items: report }
  // A run is read by who sees what it covered when it was queued as well as its report now: a run over T1 and T2
  // stays out of reach of a Viewer of T1 after the report is narrowed to T1, exactly like an unknown run.
  const run: ItemCoverage = {
    describe: (params) => `Run ${params.runId} of report ${params.reportId}`,
    coverageOf: (params) => reports.runCoverage(params.reportId!, params.runId!),
  }
  const runViewer = { tenancyRole: 'Viewer' as const, items: run }

  app.get(
    '/reports',
    {
      schema: publicOperation('PublicListReports', 'Report definitions the key can see, by name (id last).', {
        description:
          'A report is listed when the key can see every tenancy it covers; organisation-wide reports (tenancyIds ' +
          'null) are listed for owners and owner-scoped keys only.',
        querystring: PageQuery,
        response: { 200: Page(ref(ReportRecord), 'ReportPage'), ...problemResponses(400) },
      }),
      config: { requires: 'any' },
    },
    async (req, reply) => replyPage(req, reply, await reports.list(req.principal!, pagingOf(req.query))),
  )

  app.post(
    '/reports',
    {
      schema: publicOperation(
        'CreateReport',
        'Creates a report definition. Owners only.',
        {
          description:
            'The kind decides the parameters (see the Report schema). `tenancyIds` null covers the whole ' +
            'organisation, every tenancy present when a run starts. An optional schedule queues a run each day, ' +
            'week or month.',
          body: ref(CreateReportRequest),
          response: { 201: ref(ReportRecord), ...bodyProblems(), ...problemResponses(403) },
        },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const created = await reports.create(req.principal!, req.body)
      return reply.code(201).header('Location', `${API}/reports/${created.id}`).send(created)
    },
  )

  app.get(
    '/reports/:reportId',
    {
      schema: publicOperation('PublicGetReport', 'One report definition, with its latest run.', {
        params: ReportParams,
        response: { 200: ref(ReportRecord), ...problemResponses(400, 404) },
      }),
      config: { requires: viewer },
    },
    async (req) => reports.get(req.principal!, req.params.reportId),
  )

  app.patch(
    '/reports/:reportId',
    {
      schema: publicOperation(
        'UpdateReport',
        'Changes a report definition. Owners only.',
        {
          description: 'Absent fields are unchanged; the kind cannot change (create another report).',
          params: ReportParams,
          body: ref(PatchReportRequest),
          response: { 200: ref(ReportRecord), ...bodyProblems(), ...problemResponses(403, 404) },
        },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req) => reports.update(req.principal!, req.params.reportId, req.body),
  )

  app.delete(
    '/reports/:reportId',
    {
      schema: publicOperation(
        'DeleteReport',
        'Deletes a report definition with its runs and files. Owners only.',
        { params: ReportParams, response: { ...deleted, ...problemResponses(400, 403, 404) } },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      await reports.delete(req.principal!, { actor: req.principal!.actor, origin: req.ip }, req.params.reportId)
      return reply.code(204).send()
    },
  )

  app.get(
    '/reports/:reportId/runs',
    {
      schema: publicOperation('PublicListReportRuns', 'Runs of a report, newest first (id last).', {
        description:
          'A run covers the tenancies of its report when it was queued (an organisation-wide one: owners only); ' +
          'only the runs whose every tenancy the key sees are listed.',
        params: ReportParams,
        querystring: PageQuery,
        response: { 200: Page(ref(ReportRunRecord), 'ReportRunPage'), ...problemResponses(400, 404) },
      }),
      config: { requires: viewer },
    },
    async (req, reply) =>
      replyPage(req, reply, await reports.listRuns(req.principal!, req.params.reportId, pagingOf(req.query))),
  )

  app.post(
    '/reports/:reportId/runs',
    {
      schema: publicOperation('PublicTriggerReportRun', 'Starts a report run (202 with Location).', {
        description:
          'Needs Editor on every tenancy the report covers (an organisation-wide report: an owner). The run is ' +
          'queued; follow it at the Location, from Queued through Running to Succeeded (its files can then be ' +
          'downloaded) or Failed (with `error`).',
        params: ReportParams,
        response: { 202: ref(ReportRunRecord), ...problemResponses(400, 403, 404) },
      }),
      config: { requires: { tenancyRole: 'Editor', items: report } },
    },
    async (req, reply) => {
      const run = await reports.trigger(req.principal!, req.params.reportId)
      return reply.code(202).header('Location', `${API}/reports/${run.reportId}/runs/${run.id}`).send(run)
    },
  )

  app.get(
    '/reports/:reportId/runs/:runId',
    {
      schema: publicOperation('PublicGetReportRun', 'A run with its data (up to 10,000 rows).', {
        description:
          'A run and its files are read by a key that sees every tenancy the run covered (those of its report when ' +
          'it was queued) and the report as it is; otherwise 404, exactly like an unknown run.',
        params: ReportRunParams,
        response: { 200: ref(ReportRunDetail), ...problemResponses(400, 404) },
      }),
      config: { requires: runViewer },
    },
    async (req) => reports.getRun(req.params.reportId, req.params.runId),
  )

  app.get(
    '/reports/:reportId/runs/:runId/csv',
    {
      schema: publicOperation('PublicDownloadReportRunCsv', 'Redirects (302) to a signed CSV URL.', {
        description:
          'The URL needs no API key and lives 5 minutes (COSTWATCH_SIGNED_URL_SECONDS); a changed or expired URL ' +
          'answers 403. Cells that a spreadsheet would take for a formula are escaped. 409 until the run succeeded.',
        params: ReportRunParams,
        response: {
          302: { description: 'Redirect to the signed URL in Location.', type: 'null' },
          ...problemResponses(400, 404, 409),
        },
      }),
      config: { requires: runViewer },
    },
    async (req, reply) => reply.redirect(await reports.csvUrl(req.params.reportId, req.params.runId), 302),
  )

  const downloads: [Format, string, string][] = [
    ['pdf', 'PublicDownloadReportRunPdf', 'The run as PDF.'],
    ['xlsx', 'PublicDownloadReportRunXlsx', 'The run as XLSX.'],
  ]
  for (const [format, operationId, summary] of downloads) {
    app.get(
      `/reports/:reportId/runs/:runId/${format}`,
      {
        schema: publicOperation(operationId, summary, {
          description: '409 until the run succeeded.',
          params: ReportRunParams,
          response: { ...binary(FORMATS[format].contentType, summary), ...problemResponses(400, 404, 409) },
        }),
        config: { requires: runViewer },
      },
      async (req, reply) => {
        const file = await reports.file(req.params.reportId, req.params.runId, format)
        return reply
          .type(file.contentType)
          .header('Content-Length', file.size)
          .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
          .send(file.body)
      },
    )
  }

  // The signed CSV link: no key, the signature over path and expiry is the permission. Not an API operation.
  app.get(
    `${SIGNED_FILES_PATH.slice(API.length)}/:runId/:file`,
    { schema: { hide: true, params: SignedFileParams, querystring: SignedFileQuery }, config: { requires: 'none' } },
    async (req, reply) => {
      const path = req.url.split('?')[0]!
      const file = await reports.signedFile(path, req.params.runId, req.query.expires, req.query.sig)
      return reply
        .type(file.contentType)
        .header('Content-Length', file.size)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(file.body)
    },
  )
}
