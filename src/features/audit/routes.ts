import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AuditStore } from './store.js'

/** The audit log of the organisation for its owners in the web interface (`/api/app/audit`), newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditStore }> = async (app, { audit }) => {
  app.get(
    '/audit',
    {
      schema: {
        hide: true,
        querystring: Type.Object(
          { limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }) },
          { additionalProperties: false },
        ),
      },
      config: { requires: 'owner' },
    },
    async (req) => ({
      items: await audit.list({ organisationId: req.principal!.organisationId, limit: req.query.limit }),
    }),
  )
}
