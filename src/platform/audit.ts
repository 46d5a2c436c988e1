import type { Kysely } from 'kysely'
import type { Ids } from './clock.js'
import type { Database } from './db/index.js'
import type { ActorRef } from './http/schemas.js'

/**
 * What was done, to an API key, a user, a tenancy, a report or an event marker; the names read in the audit list as
 * they are. Sign-ins (and failed ones) and password reset requests are here too: whoever tries an account, from where.
 */
export const AUDIT_ACTIONS = [
  'apiKey.created',
  'apiKey.revoked',
  'user.invited',
  'user.invitationResent',
  'user.invitationAccepted',
  'user.renamed',
  'user.ownerGranted',
  'user.ownerRevoked',
  'user.disabled',
  'user.enabled',
  'user.roleGranted',
  'user.roleRevoked',
  'user.signedIn',
  'user.signInFailed',
  'user.passwordResetRequested',
  'user.passwordReset',
  'tenant.created',
  'report.deleted',
  'event.deleted',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** The command line's origin; an HTTP change records its client address instead. */
export const CLI_ORIGIN = 'cli'
/** Who acts from the command line. */
export const CLI_ACTOR: ActorRef = { type: 'System', id: null, name: 'command line' }

/** Who is acting and from where: every change of access carries one, so its audit row can say so. */
export interface Acting {
  actor: ActorRef
  /** The client address of the HTTP request, or `cli`. */
  origin: string
}
export const FROM_CLI: Acting = { actor: CLI_ACTOR, origin: CLI_ORIGIN }

export interface AuditEntry {
  organisationId: string
  at: string
  by: Acting
  action: AuditAction
  target: { type: 'ApiKey' | 'User' | 'Tenant' | 'Report' | 'Event'; id: string }
  /** Plain facts (a role, a tenancy, a key's name, a report's name or a marker's title); never a secret. */
  detail?: Record<string, string | boolean | null>
}

/**
 * The one write of the audit log. Called with the transaction of the change it records, so the row commits with
 * the change or not at all.
 */
export async function recordAudit(trx: Kysely<Database>, ids: Ids, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('auditLog')
    .values({
      id: ids.uuid(),
      organisationId: entry.organisationId,
      at: entry.at,
      actorType: entry.by.actor.type,
      actorId: entry.by.actor.id,
      actorName: entry.by.actor.name,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      origin: entry.by.origin,
    })
    .execute()
}
