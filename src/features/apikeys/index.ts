import type { Feature } from '../feature.js'
import { registerKeyCommands } from './cli.js'

/** Keys are verified by the auth hooks (`services.apiKeys`); the feature adds only its commands. */
export const apiKeys: Feature = {
  name: 'apikeys',
  commands: registerKeyCommands,
}
