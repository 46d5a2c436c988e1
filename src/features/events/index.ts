import type { Feature } from '../feature.js'
import { registerEventCommands } from './cli.js'
import { eventRoutes } from './routes.js'
import { CreatePublicEventRequest, EventRecord, PatchPublicEventRequest } from './schemas.js'

export const events: Feature = {
  name: 'events',
  schemas: [EventRecord, CreatePublicEventRequest, PatchPublicEventRequest],
  routes: (api, s) => api.register(eventRoutes, { events: s.events }),
  // Talks HTTP to a running service, not to the database: it needs none of the services.
  commands: (cli) => registerEventCommands(cli),
}
