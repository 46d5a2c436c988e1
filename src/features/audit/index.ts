import type { Feature } from '../feature.js'
import { registerAuditCommands } from './cli.js'
import { auditRoutes } from './routes.js'

/** The audit log is written by every change of access (platform/audit.ts); this feature lists it (command line, web interface). */
export const audit: Feature = {
  name: 'audit',
  commands: registerAuditCommands,
  appRoutes: (app, s) => app.register(auditRoutes, { audit: s.audit }),
}
