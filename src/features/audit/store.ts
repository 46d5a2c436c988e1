import type { Kysely } from 'kysely'
import type { AuditAction } from '../../platform/audit.js'
import type { Database } from '../../platform/db/index.js'
import type { ActorRef } from '../../platform/http/schemas.js'

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

/** Reads the audit log; it is written by `recordAudit` (platform/audit.ts), in the transaction of each change. */
export function createAuditStore(db: Kysely<Database>) {
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
      return rows.map((r) => ({
        id: r.id,
        organisationId: r.organisationId,
        at: r.at,
        actor: { type: r.actorType as ActorRef['type'], id: r.actorId, name: r.actorName },
        action: r.action as AuditAction,
        target: { type: r.targetType, id: r.targetId },
        detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
        origin: r.origin,
      }))
    },
  }
}
export type AuditStore = ReturnType<typeof createAuditStore>
