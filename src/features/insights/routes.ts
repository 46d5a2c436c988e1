import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ItemTenancy } from '../../platform/auth/principal.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, parseQueryBoolean } from '../../platform/http/schemas.js'
import { InsightListQuery, InsightParams, InsightRecord, PatchInsightRequest } from './schemas.js'
import type { InsightService } from './service.js'

export const insightRoutes: FastifyPluginAsyncTypebox<{ insights: InsightService }> = async (app, { insights }) => {
  // An insight's path names no tenancy: the permission check finds it from the insight.
  const item: ItemTenancy = {
    describe: (params) => `Insight ${params.insightId}`,
    tenancyOf: (params) => insights.tenancyOf(params.insightId!),
  }

  app.get(
    '/insights',
    {
      schema: publicOperation(
        'PublicListInsights',
        'Cost-reduction insights across the tenancies the key can see, largest saving first (id last).',
        {
          description:
            'Only Active insights unless `includeDismissed=true` (dismissed: any status but Active; a snooze ' +
            'that has passed is Active again). `tenancyId` narrows to one tenancy; one the key cannot see gives ' +
            'an empty page.',
          querystring: InsightListQuery,
          response: { 200: Page(ref(InsightRecord), 'InsightPage'), ...problemResponses(400) },
        },
      ),
      config: { requires: 'any' },
    },
    async (req, reply) => {
      const { category, severity, tenancyId, includeDismissed } = req.query
      const page = await insights.list(
        req.principal!,
        { category, severity, tenancyId, includeDismissed: parseQueryBoolean(includeDismissed) },
        pagingOf(req.query),
      )
      return replyPage(req, reply, page)
    },
  )

  app.get(
    '/insights/:insightId',
    {
      schema: publicOperation('PublicGetInsight', 'One insight, with its status as of now.', {
        params: InsightParams,
        response: { 200: ref(InsightRecord), ...problemResponses(400, 404) },
      }),
      config: { requires: { tenancyRole: 'Viewer', item } },
    },
    async (req) => insights.get(req.params.insightId),
  )

  app.patch(
    '/insights/:insightId',
    {
      schema: publicOperation('PublicUpdateInsightStatus', 'Acts on an insight. Needs Editor or above.', {
        description:
          'The resulting `status` is the action. `Snoozed` needs `snoozeDays` (1 to 365, an integer or a numeric ' +
          'string) and sets `snoozedUntil`; once it passes the insight is Active again. `snoozeDays` with another ' +
          'action, and `AutoResolved` (set only by the service), are 400s. Repeating the current status is a 200 ' +
          'that changes nothing; `Snoozed` again snoozes anew from now. The action is kept as `lastAction`.',
        params: InsightParams,
        body: ref(PatchInsightRequest),
        response: { 200: ref(InsightRecord), ...bodyProblems(), ...problemResponses(403, 404) },
      }),
      config: { requires: { tenancyRole: 'Editor', item } },
    },
    async (req) => insights.act(req.principal!, req.params.insightId, req.body),
  )
}
