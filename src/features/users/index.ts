import type { Feature } from '../feature.js'
import { registerUserCommands } from './cli.js'
import { userRoutes } from './routes.js'
import { InvitePublicUserRequest, PatchPublicUserRequest, TenancyUserRecord, UserRecord } from './schemas.js'

export const users: Feature = {
  name: 'users',
  schemas: [UserRecord, TenancyUserRecord, InvitePublicUserRequest, PatchPublicUserRequest],
  routes: (api) => api.register(userRoutes),
  commands: registerUserCommands,
}
