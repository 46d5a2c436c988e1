import type { Feature } from '../feature.js'
import { sessionRoutes } from './routes.js'

/** Sign-in for the web interface: sessions, sign-out and password resets, under `/api/app` only. */
export const session: Feature = {
  name: 'session',
  appRoutes: (app, s) => app.register(sessionRoutes, { sessions: s.sessions, secureCookie: s.sessions.secureCookie }),
}
