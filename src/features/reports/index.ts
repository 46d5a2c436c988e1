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

export const reports: Feature = {
  name: 'reports',
  schemas: [ReportSchedule, ReportRunRecord, ReportRecord, ReportRunDetail, CreateReportRequest, PatchReportRequest],
  routes: (api, s) => api.register(reportRoutes, { reports: s.reports, store: s.reportStore }),
}
