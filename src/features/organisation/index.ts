import type { Feature } from '../feature.js'
import { organisationRoutes } from './routes.js'
import { OrganisationRecord } from './schemas.js'
import type { OrganisationService } from './service.js'

export const organisation: Feature<{ organisations: OrganisationService }> = {
  name: 'organisation',
  schemas: [OrganisationRecord],
  routes: (api, s) => api.register(organisationRoutes, { organisations: s.organisations }),
}
