import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { webOperation } from '../../platform/http/openapi.js'
import { Nullable, Uuid } from '../../platform/http/schemas.js'
import { ApiKeyRecord, TenancyGrant } from './schemas.js'
import type { ApiKeyService } from './service.js'

const NewKey = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    expiresAt: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    /** `owner` for a key that acts as an owner; otherwise the tenancies it may act on, with a role each. */
    scope: Type.Union([Type.Literal('owner'), Type.Array(TenancyGrant, { minItems: 1, maxItems: 500 })]),
  },
  { additionalProperties: false },
)
const KeyParams = Type.Object({ keyId: Uuid }, { additionalProperties: false })

/**
 * API key settings of the web interface (`/api/app/keys`, owners): create (the secret answered once, never
 * again), list, revoke. Each change is in the audit log with the user and their address.
 */
export const apiKeySettingsRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeyService }> = async (app, { apiKeys }) => {
  app.get(
    '/keys',
    {
      schema: webOperation('ListApiKeys', "The organisation's API keys.", {
        response: { 200: Type.Object({ items: Type.Array(ApiKeyRecord) }) },
      }),
      config: { requires: 'owner' },
    },
    async (req) => ({ items: await apiKeys.list(req.principal!.organisationId) }),
  )

  app.post(
    '/keys',
    {
      schema: webOperation('CreateApiKey', 'Creates an API key; the answer holds its secret, once.', {
        body: NewKey,
        response: { 201: Type.Object({ key: ApiKeyRecord, apiKey: Type.String() }) },
      }),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const who = req.principal!
      const { name, expiresAt, scope } = req.body
      const created = await apiKeys.create({
        organisationId: who.organisationId,
        name,
        expiresAt: expiresAt ?? null,
        grants: scope === 'owner' ? null : scope,
        createdBy: who.actor,
        origin: req.ip,
      })
      return reply.code(201).send(created)
    },
  )

  app.delete(
    '/keys/:keyId',
    {
      schema: webOperation('RevokeApiKey', 'Revokes an API key.', { params: KeyParams }),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const who = req.principal!
      await apiKeys.revoke(who.organisationId, req.params.keyId, { actor: who.actor, origin: req.ip })
      return reply.code(204).send()
    },
  )
}
