import type { Feature } from '../feature.js'
import { insightRoutes } from './routes.js'
import { InsightRecord, PatchInsightRequest } from './schemas.js'

export const insights: Feature = {
  name: 'insights',
  schemas: [InsightRecord, PatchInsightRequest],
  routes: (api, s) => api.register(insightRoutes, { insights: s.insights, store: s.insightStore }),
}
