import type { Feature } from '../feature.js'
import { anomalyRoutes } from './routes.js'
import { AnomalyFeedbackCounts, AnomalyRecord, EventCostImpact, PatchAnomalyRequest } from './schemas.js'
import type { AnomalyService } from './service.js'

export const anomalies: Feature<{ anomalies: AnomalyService }> = {
  name: 'anomalies',
  schemas: [AnomalyRecord, PatchAnomalyRequest, EventCostImpact, AnomalyFeedbackCounts],
  routes: (api, s) => api.register(anomalyRoutes, { anomalies: s.anomalies }),
}
