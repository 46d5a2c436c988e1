import type { Feature } from '../feature.js'
import { apiKeySettingsRoutes } from './routes.js'

/**
 * Keys are verified by the auth hooks (`services.apiKeys`); the feature adds their settings in the web interface's
 * API (owners). Their commands are in cli.ts (listed in features/commands.ts).
 */
export const apiKeys: Feature = {
  name: 'apikeys',
  appRoutes: (app, s) => app.register(apiKeySettingsRoutes, { apiKeys: s.apiKeys }),
}
