import type { Feature } from '../feature.js'
import { registerAuditCommands } from './cli.js'

/** The audit log is written by every change of access (platform/audit.ts); this feature lists it. */
export const audit: Feature = {
  name: 'audit',
  commands: registerAuditCommands,
}
