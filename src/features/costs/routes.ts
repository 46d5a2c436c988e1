import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { CostForecast, CostForecastQuery, CostParams, CostSeries, CostSeriesQuery } from './schemas.js'
import type { CostService } from './service.js'

export const costRoutes: FastifyPluginAsyncTypebox<{ costs: CostService }> = async (app, { costs }) => {
  app.get(
    '/tenants/:tenantId/costs/daily',
    {
      schema: publicOperation(
        'GetTenantDailyCosts',
        'Daily amortised cost of a chart scope (every day of the range), optionally grouped, with the event markers visible on that chart. from/to default to the last 30 days; at most 400 days.',
        {
          params: CostParams,
          querystring: CostSeriesQuery,
          response: { 200: ref(CostSeries), ...problemResponses(400, 404, 409) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) => costs.daily(req.params.tenantId, req.query),
  )

  app.get(
    '/tenants/:tenantId/costs/forecast',
    {
      schema: publicOperation(
        'GetTenantCostForecast',
        "Expected daily cost of a chart scope (and of each of its groups) from the day after its last settled day up to `to`, with an 80% interval, the current month's projected total and the period's, and the forecast's backtested accuracy. Below 28 settled days of usage cost: 422 not-enough-history.",
        {
          params: CostParams,
          querystring: CostForecastQuery,
          response: { 200: ref(CostForecast), ...problemResponses(400, 404, 422) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) => costs.forecast(req.params.tenantId, req.query),
  )
}
