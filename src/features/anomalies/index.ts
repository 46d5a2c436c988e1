import type { Feature } from '../feature.js'
import { anomalyRoutes } from './routes.js'
import { AnomalyRecord, PatchAnomalyRequest } from './schemas.js'

export const anomalies: Feature = {
  name: 'anomalies',
  schemas: [AnomalyRecord, PatchAnomalyRequest],
  routes: (api) => api.register(anomalyRoutes),
}
