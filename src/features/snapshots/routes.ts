import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ApiError } from '../../platform/http/errors.js'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery, parseQueryBoolean, TenantParams } from '../../platform/http/schemas.js'
import { SnapshotParams, SnapshotRun, TriggerSnapshotQuery, UploadQuery } from './schemas.js'
import type { SnapshotService } from './service.js'
import type { UploadService } from './upload.js'

/** The media types of a FOCUS file: CSV, gzip CSV, Parquet (and a client's generic one). */
const COST_FILE_TYPES = [
  'text/csv',
  'application/gzip',
  'application/x-gzip',
  'application/vnd.apache.parquet',
  'application/octet-stream',
]
/** The body as a stream: an upload is spooled to disk as it arrives, never held in memory (see upload.ts). */
const fileBody = {
  content: Object.fromEntries(
    COST_FILE_TYPES.map((type) => [type, { schema: { format: 'binary', description: 'The FOCUS file.' } }]),
  ),
}

export const snapshotRoutes: FastifyPluginAsyncTypebox<{ snapshots: SnapshotService; uploads: UploadService }> = async (
  app,
  { snapshots, uploads },
) => {
  app.addContentTypeParser(COST_FILE_TYPES, (_req, payload, done) => done(null, payload))

  app.get(
    '/tenants/:tenantId/snapshots',
    {
      schema: publicOperation('PublicListTenantSnapshots', 'Snapshot runs of the tenant, newest first.', {
        params: TenantParams,
        querystring: PageQuery,
        response: { 200: Page(ref(SnapshotRun), 'SnapshotRunPage'), ...problemResponses(400, 404) },
      }),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req, reply) => replyPage(req, reply, await snapshots.list(req.params.tenantId, pagingOf(req.query))),
  )

  app.post(
    '/tenants/:tenantId/snapshots',
    {
      schema: publicOperation(
        'PublicTriggerTenantSnapshot',
        'Queues a snapshot collection run: 202 with Location and the run. deepHistory=true collects the 30 days before today; otherwise from the last successful run (at least the last 3 days). 409 with activeRunId while one is queued or running.',
        {
          params: TenantParams,
          querystring: TriggerSnapshotQuery,
          response: {
            202: { ...ref(SnapshotRun), description: 'Queued; poll the Location.' },
            ...problemResponses(400, 403, 404, 409),
          },
        },
      ),
      config: { requires: { tenancyRole: 'Editor' } },
    },
    async (req, reply) => {
      const run = await snapshots.trigger(req.principal!, req.params.tenantId, parseQueryBoolean(req.query.deepHistory))
      return reply.code(202).header('Location', `/api/public/v1/tenants/${run.tenantId}/snapshots/${run.id}`).send(run)
    },
  )

  app.get(
    '/tenants/:tenantId/snapshots/:snapshotId',
    {
      schema: publicOperation(
        'GetTenantSnapshot',
        'One snapshot run, to follow its progress.',
        { params: SnapshotParams, response: { 200: ref(SnapshotRun), ...problemResponses(400, 404) } },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) => snapshots.get(req.params.tenantId, req.params.snapshotId),
  )

  app.post(
    '/tenants/:tenantId/cost-files',
    {
      schema: publicOperation(
        'UploadTenantCostFile',
        'Imports one FOCUS file (CSV, gzip CSV or Parquet, FOCUS 1.0 to 1.2) into a FocusUpload tenant: 202 with Location and the import run, which replaces each billing period the file holds. At most COSTWATCH_UPLOAD_MAX_MB (2048 by default); `fileName` names it in the run. 409 for a tenant of another cost source, or while a run is queued or running.',
        {
          params: TenantParams,
          querystring: UploadQuery,
          body: fileBody as never,
          response: {
            202: { ...ref(SnapshotRun), description: 'The import run; poll the Location.' },
            ...problemResponses(400, 403, 404, 409, 413, 415),
          },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Editor' } },
    },
    async (req, reply) => {
      // JSON and form bodies are parsed by the app's own parsers before they get here: not a file.
      const body = req.body as NodeJS.ReadableStream | null
      if (typeof body?.pipe !== 'function')
        throw new ApiError(415, 'unsupported-media-type', 'The request body must be a FOCUS file.', {
          detail: `Send the file as the body, with Content-Type ${COST_FILE_TYPES.slice(0, 4).join(', ')}.`,
        })
      const run = await uploads.upload(req.principal!, req.params.tenantId, body, req.query.fileName)
      return reply.code(202).header('Location', `/api/public/v1/tenants/${run.tenantId}/snapshots/${run.id}`).send(run)
    },
  )
}
