import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replySerialisedPage } from '../../platform/http/reply.js'
import { Page, PageQuery, TenantParams } from '../../platform/http/schemas.js'
import { CreateTenancyRequest, TenantRecord } from './schemas.js'
import type { TenantService } from './service.js'

export const tenantRoutes: FastifyPluginAsyncTypebox<{ tenants: TenantService }> = async (app, { tenants }) => {
  app.get(
    '/tenants',
    {
      schema: publicOperation('PublicListTenants', 'Tenants the key can see, by name.', {
        querystring: PageQuery,
        response: { 200: Page(ref(TenantRecord), 'TenantPage'), ...problemResponses(400) },
      }),
      config: { requires: 'any' },
    },
    // The service keeps whole pages as bytes; it serialises a new one through this route's response schema.
    async (req, reply) =>
      replySerialisedPage(
        req,
        reply,
        await tenants.listSerialised(req.principal!, pagingOf(req.query), (page) => reply.serialize(page)),
      ),
  )

  app.post(
    '/tenants',
    {
      schema: publicOperation('PublicCreateTenant', 'Connects a cloud tenant. Needs an organisation owner.', {
        body: ref(CreateTenancyRequest),
        response: { 201: ref(TenantRecord), ...bodyProblems(), ...problemResponses(403, 409) },
      }),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const tenant = await tenants.create(req.principal!, req.body, req.ip)
      return reply.code(201).header('Location', `/api/public/v1/tenants/${tenant.id}`).send(tenant)
    },
  )

  app.get(
    '/tenants/:tenantId',
    {
      schema: publicOperation('PublicGetTenant', 'One tenant.', {
        params: TenantParams,
        response: { 200: ref(TenantRecord), ...problemResponses(400, 404) },
      }),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) => tenants.get(req.principal!, req.params.tenantId),
  )
}
