import type { AnonymousLimiter } from '../../platform/auth/failures.js'
import type { Feature } from '../feature.js'
import { invitationPages } from './pages.js'
import { userRoutes, userSettingsRoutes } from './routes.js'
import {
  GrantTenancyRoleRequest,
  InvitePublicUserRequest,
  PatchPublicUserRequest,
  TenancyUserRecord,
  UserRecord,
} from './schemas.js'
import type { UserService } from './service.js'

export const users: Feature<{ users: UserService; anonymousRequests: AnonymousLimiter }> = {
  name: 'users',
  schemas: [UserRecord, TenancyUserRecord, InvitePublicUserRequest, PatchPublicUserRequest, GrantTenancyRoleRequest],
  routes: (api, services) => api.register(userRoutes, { users: services.users }),
  appRoutes: (app, services) => app.register(userSettingsRoutes, { users: services.users }),
  pages: (app, services) => app.register(invitationPages(services.users, services.anonymousRequests.check)),
}
