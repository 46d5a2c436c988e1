import type { Feature } from '../feature.js'
import { registerKeyCommands } from './cli.js'
import { apiKeySettingsRoutes } from './routes.js'

/**
 * Keys are verified by the auth hooks (`services.apiKeys`); the feature adds their commands, and their settings
 * in the web interface's API (owners).
 */
export const apiKeys: Feature = {
  name: 'apikeys',
  commands: registerKeyCommands,
  appRoutes: (app, s) => app.register(apiKeySettingsRoutes, { apiKeys: s.apiKeys }),
}
