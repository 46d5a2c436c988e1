import type { Feature } from '../feature.js'
import { apiKeySettingsRoutes } from './routes.js'
import type { ApiKeyService } from './service.js'

/**
 * Keys are verified by the auth hooks (`services.apiKeys`); the feature adds their settings in the web interface's
 * API (owners). Their commands are in cli.ts (listed in features/commands.ts).
 */
export const apiKeys: Feature<{ apiKeys: ApiKeyService }> = {
  name: 'apikeys',
  appRoutes: (app, s) => app.register(apiKeySettingsRoutes, { apiKeys: s.apiKeys }),
}
