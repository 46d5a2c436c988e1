import type { Feature } from '../feature.js'
import { costRoutes } from './routes.js'
import { CostForecast, CostSeries } from './schemas.js'
import type { CostService } from './service.js'

export const costs: Feature<{ costs: CostService }> = {
  name: 'costs',
  schemas: [CostSeries, CostForecast],
  routes: (api, s) => api.register(costRoutes, { costs: s.costs }),
}
