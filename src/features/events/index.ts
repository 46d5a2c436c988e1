import type { Feature } from '../feature.js'
import { eventRoutes } from './routes.js'
import {
  CreatePublicEventRequest,
  EventRecord,
  MarkerPrediction,
  MarkerPredictionInput,
  PatchPublicEventRequest,
} from './schemas.js'
import type { EventService } from './service.js'

export const events: Feature<{ events: EventService }> = {
  name: 'events',
  schemas: [MarkerPrediction, MarkerPredictionInput, EventRecord, CreatePublicEventRequest, PatchPublicEventRequest],
  routes: (api, s) => api.register(eventRoutes, { events: s.events }),
}
