import type { Feature } from '../feature.js'
import { costRoutes } from './routes.js'
import { CostSeries } from './schemas.js'

export const costs: Feature = {
  name: 'costs',
  schemas: [CostSeries],
  routes: (api, s) => api.register(costRoutes, { costs: s.costs }),
}
