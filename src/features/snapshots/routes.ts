import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery, parseQueryBoolean, TenantParams } from '../../platform/http/schemas.js'
import { SnapshotParams, SnapshotRun, TriggerSnapshotQuery } from './schemas.js'
import type { SnapshotService } from './service.js'

export const snapshotRoutes: FastifyPluginAsyncTypebox<{ snapshots: SnapshotService }> = async (app, { snapshots }) => {
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
}
