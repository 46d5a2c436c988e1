import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ApiError } from '../../platform/http/errors.js'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { OrganisationRecord } from './schemas.js'
import type { OrganisationService } from './service.js'

export const organisationRoutes: FastifyPluginAsyncTypebox<{ organisations: OrganisationService }> = async (
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
      const org = await organisations.of(req.principal!)
      if (!org) throw ApiError.unauthorized()
      return org
    },
  )
}
