import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { problemResponses, webOperation } from '../../platform/http/openapi.js'
import { Overview, OverviewQuery } from './schemas.js'
import type { OverviewService } from './service.js'

/** The web interface's landing page in one answer (`/api/app/overview`), for any signed-in user. */
export const overviewRoutes: FastifyPluginAsyncTypebox<{ overview: OverviewService }> = async (app, { overview }) => {
  app.get(
    '/overview',
    {
      schema: webOperation(
        'GetOverview',
        'The overview: spend, forecast, budgets at risk, movers, anomalies, savings.',
        {
          description:
            'Over every tenancy the user may see, or the one `tenancyId` names (one they cannot see is a 404). ' +
            'Amounts per currency, never added across currencies.',
          querystring: OverviewQuery,
          response: { 200: Overview, ...problemResponses(400, 404) },
        },
      ),
      config: { requires: 'any' },
    },
    async (req) => overview.overview(req.principal!, req.query),
  )
}
