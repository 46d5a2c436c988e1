import type { Feature } from '../feature.js'
import { tenantRoutes } from './routes.js'
import { CreateTenancyRequest, TenantRecord } from './schemas.js'

export const tenants: Feature = {
  name: 'tenants',
  schemas: [TenantRecord, CreateTenancyRequest],
  routes: (api, s) => api.register(tenantRoutes, { tenants: s.tenants }),
}
