import type { Feature } from '../feature.js'
import { insightRoutes } from './routes.js'
import { InsightRecord, PatchInsightRequest } from './schemas.js'
import type { InsightService } from './service.js'

export const insights: Feature<{ insights: InsightService }> = {
  name: 'insights',
  schemas: [InsightRecord, PatchInsightRequest],
  routes: (api, s) => api.register(insightRoutes, { insights: s.insights }),
}
