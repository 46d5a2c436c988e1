import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { visibleTenancies } from '../../platform/auth/principal.js'
import { ApiError } from '../../platform/http/errors.js'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { OrganisationRecord } from './schemas.js'
import type { OrganisationStore } from './store.js'

export const organisationRoutes: FastifyPluginAsyncTypebox<{ organisations: OrganisationStore }> = async (
  app,
  { organisations },
) => {
  app.get(
    '/organisation',
    {
      schema: publicOperation('PublicGetOrganisation', 'The organisation of the API key.', {
        response: { 200: ref(OrganisationRecord), ...problemResponses(401, 429) },
      }),
      config: { requires: 'any' },
    },
    async (req) => {
      const who = req.principal!
      const org = await organisations.get(who.organisationId)
      if (!org) throw ApiError.unauthorized()
      return { ...org, tenancyCount: await organisations.tenancyCount(org.id, visibleTenancies(who)) }
    },
  )
}
