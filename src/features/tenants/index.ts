import type { Feature } from '../feature.js'
import { tenantRoutes } from './routes.js'
import { CreateTenancyRequest, TenantRecord } from './schemas.js'
import type { TenantService } from './service.js'

export const tenants: Feature<{ tenants: TenantService }> = {
  name: 'tenants',
  schemas: [TenantRecord, CreateTenancyRequest],
  routes: (api, s) => api.register(tenantRoutes, { tenants: s.tenants }),
}
