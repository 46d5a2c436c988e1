import type { AnonymousLimiter, AuthFailureLimiter } from '../../platform/auth/failures.js'
import type { Feature } from '../feature.js'
import { resetPages } from './pages.js'
import { sessionRoutes } from './routes.js'
import type { SessionService } from './service.js'

/**
 * Sign-in for the web interface: sessions, sign-out and password resets under `/api/app` only, and the page a
 * reset e-mail links to.
 */
export const session: Feature<{
  sessions: SessionService
  authFailures: AuthFailureLimiter
  anonymousRequests: AnonymousLimiter
}> = {
  name: 'session',
  appRoutes: (app, s) =>
    app.register(sessionRoutes, {
      sessions: s.sessions,
      secureCookie: s.sessions.secureCookie,
      failed: s.authFailures.failed,
      limitAddress: s.anonymousRequests.check,
    }),
  pages: (app, s) => app.register(resetPages(s.sessions, s.anonymousRequests.check)),
}
