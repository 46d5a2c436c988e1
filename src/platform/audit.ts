import type { Kysely, Selectable } from 'kysely'
import type { Ids } from './clock.js'
import type { Database } from './db/index.js'
import type { AuditLogTable } from './db/schema.js'
import { offsetOf, type Paging } from './http/paging.js'
import type { ActorRef } from './http/schemas.js'

// The audit log's one owner: every feature records its changes here, and the audit feature reads them from here.

/**
 * What was done, to an API key, a user, a tenancy, a report, an event marker or a notification channel; the names read in the audit list as
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
  'notificationChannel.created',
  'notificationChannel.updated',
  'notificationChannel.deleted',
  'notificationChannel.secretRotated',
  'notificationChannel.disabled',
  'notificationRule.created',
  'notificationRule.updated',
  'notificationRule.deleted',
  'budget.created',
  'budget.updated',
  'budget.deleted',
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
  target: {
    type: 'ApiKey' | 'User' | 'Tenant' | 'Report' | 'Event' | 'NotificationChannel' | 'NotificationRule' | 'Budget'
    id: string
  }
  /**
   * Plain facts (a role, a tenancy, a key's name, a report's name, a marker's title, a channel's changed fields);
   * never a secret (a channel's URL or signing secret).
   */
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

/** One row of the audit log, as `costwatch audit list` prints it. */
export interface AuditRecord {
  id: string
  organisationId: string
  at: string
  actor: ActorRef
  action: AuditAction
  target: { type: string; id: string }
  detail: Record<string, unknown> | null
  origin: string
}

/** Reads the audit log, for the audit feature's list and page; `recordAudit` above is its one write. */
export function createAuditStore(db: Kysely<Database>) {
  const recordOf = (r: Selectable<AuditLogTable>): AuditRecord => ({
    id: r.id,
    organisationId: r.organisationId,
    at: r.at,
    actor: { type: r.actorType as ActorRef['type'], id: r.actorId, name: r.actorName },
    action: r.action as AuditAction,
    target: { type: r.targetType, id: r.targetId },
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    origin: r.origin,
  })

  return {
    /** Newest first (id last, so entries of one instant keep their order); one organisation's, or everyone's. */
    async list(filter: { organisationId?: string; limit: number }): Promise<AuditRecord[]> {
      const rows = await db
        .selectFrom('auditLog')
        .selectAll()
        .$if(filter.organisationId !== undefined, (qb) => qb.where('organisationId', '=', filter.organisationId!))
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .execute()
      return rows.map(recordOf)
    },

    /** One page of an organisation's log, newest first, of one kind of change or all; with the count of all pages. */
    async page(filter: {
      organisationId: string
      action?: AuditAction
      paging: Paging
    }): Promise<{ items: AuditRecord[]; totalCount: number }> {
      const matching = db
        .selectFrom('auditLog')
        .where('organisationId', '=', filter.organisationId)
        .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action!))
      const [rows, counted] = await Promise.all([
        matching
          .selectAll()
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(filter.paging.pageSize)
          .offset(offsetOf(filter.paging))
          .execute(),
        matching.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(recordOf), totalCount: Number(counted.count) }
    },
  }
}
export type AuditStore = ReturnType<typeof createAuditStore>
