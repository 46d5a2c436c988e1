import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUDIT_ACTIONS, type AuditStore } from '../../platform/audit.js'
import { ApiError } from '../../platform/http/errors.js'
import { webOperation } from '../../platform/http/openapi.js'
import { pageOf, pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { ActorRef, Instant, Nullable, StringEnum } from '../../platform/http/schemas.js'

const AuditQuery = Type.Object(
  {
    // No defaults here: an absent page or pageSize must stay absent, to tell paging from `limit`.
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Page number, from 1.' })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Entries per page, 1 to 200.' })),
    action: Type.Optional(StringEnum(AUDIT_ACTIONS, { description: 'Only this kind of change.' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'The newest N entries: page 1 of N. Not with paging.' }),
    ),
  },
  { additionalProperties: false },
)

const AuditEntry = Type.Object({
  id: Type.String(),
  at: Instant,
  actor: ActorRef,
  action: Type.String(),
  target: Type.Object({ type: Type.String(), id: Type.String() }),
  detail: Nullable(Type.Record(Type.String(), Type.Unknown())),
  origin: Type.String(),
})

/**
 * The audit log of the organisation for its owners in the web interface (`/api/app/audit`), newest first: in
 * pages (`page`, `pageSize`), of one kind of change (`action`) or all.
 */
export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditStore }> = async (app, { audit }) => {
  app.get(
    '/audit',
    {
      schema: webOperation('ListAuditEntries', "The organisation's audit log, newest first.", {
        querystring: AuditQuery,
        response: {
          200: Type.Object({
            items: Type.Array(AuditEntry),
            page: Type.Integer(),
            pageSize: Type.Integer(),
            totalCount: Type.Integer(),
            totalPages: Type.Integer(),
          }),
        },
      }),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const { limit, action } = req.query
      if (limit !== undefined && (req.query.page !== undefined || req.query.pageSize !== undefined))
        throw ApiError.invalid({ limit: ['cannot be combined with page or pageSize'] })
      const paging = limit === undefined ? pagingOf(req.query) : { page: 1, pageSize: limit }
      const found = await audit.page({ organisationId: req.principal!.organisationId, action, paging })
      return replyPage(req, reply, pageOf(found.items, found.totalCount, paging))
    },
  )
}
