import type { Feature } from '../feature.js'
import { anomalyRoutes } from './routes.js'
import { AnomalyRecord, EventCostImpact, PatchAnomalyRequest } from './schemas.js'

export const anomalies: Feature = {
  name: 'anomalies',
  schemas: [AnomalyRecord, PatchAnomalyRequest, EventCostImpact],
  routes: (api, s) => api.register(anomalyRoutes, { anomalies: s.anomalies }),
}
