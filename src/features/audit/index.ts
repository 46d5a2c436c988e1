import type { AuditStore } from '../../platform/audit.js'
import type { Feature } from '../feature.js'
import { auditRoutes } from './routes.js'

/**
 * The audit log is written by every change of access (platform/audit.ts); this feature lists it in the web interface
 * (and `costwatch audit list`, cli.ts).
 */
export const audit: Feature<{ audit: AuditStore }> = {
  name: 'audit',
  appRoutes: (app, s) => app.register(auditRoutes, { audit: s.audit }),
}
