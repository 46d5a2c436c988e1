import type { Feature } from '../feature.js'
import { eventRoutes } from './routes.js'
import { CreatePublicEventRequest, EventRecord, PatchPublicEventRequest } from './schemas.js'

export const events: Feature = {
  name: 'events',
  schemas: [EventRecord, CreatePublicEventRequest, PatchPublicEventRequest],
  routes: (api, s) => api.register(eventRoutes, { events: s.events }),
}
