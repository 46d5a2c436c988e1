import type { Feature } from '../feature.js'
import { reportRoutes } from './routes.js'
import { ReportRecord, ReportRunDetail, ReportRunRecord } from './schemas.js'

export const reports: Feature = {
  name: 'reports',
  schemas: [ReportRecord, ReportRunRecord, ReportRunDetail],
  routes: (api) => api.register(reportRoutes),
}
