import type { Feature } from '../feature.js'
import { organisationRoutes } from './routes.js'
import { OrganisationRecord } from './schemas.js'

export const organisation: Feature = {
  name: 'organisation',
  schemas: [OrganisationRecord],
  routes: (api, s) => api.register(organisationRoutes, { organisations: s.organisationStore }),
}
