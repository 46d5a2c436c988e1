import type { Kysely, Selectable } from 'kysely'
import type { AuditAction } from '../../platform/audit.js'
import type { Database } from '../../platform/db/index.js'
import type { AuditLogTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
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
