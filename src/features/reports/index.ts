import type { Feature } from '../feature.js'
import { reportRoutes } from './routes.js'
import {
  CreateReportRequest,
  PatchReportRequest,
  ReportRecord,
  ReportRunDetail,
  ReportRunRecord,
  ReportSchedule,
} from './schemas.js'
import type { ReportService } from './service.js'

export const reports: Feature<{ reports: ReportService }> = {
  name: 'reports',
  schemas: [ReportSchedule, ReportRunRecord, ReportRecord, ReportRunDetail, CreateReportRequest, PatchReportRequest],
  routes: (api, s) => api.register(reportRoutes, { reports: s.reports }),
}
