import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { hasRoleSomewhere } from '../../platform/auth/principal.js'
import { ApiError } from '../../platform/http/errors.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import {
  ChannelParams,
  ChannelRecord,
  ChannelSecret,
  CreateChannelRequest,
  CreatedChannel,
  PatchChannelRequest,
} from './schemas.js'
import type { ChannelService } from './service.js'

const API = '/api/public/v1'
const owners = { requires: 'owner' as const }
const SECRETS_NOTE =
  'URLs and signing secrets are sealed at rest and never returned: a record says `urlHost` and `hasSecret`.'

/** Notification channels: owners manage them; every change is in the audit log (without a secret). */
export const channelRoutes: FastifyPluginAsyncTypebox<{ channels: ChannelService }> = async (app, { channels }) => {
  app.post(
    '/notification-channels',
    {
      schema: publicOperation(
        'CreateNotificationChannel',
        'Creates a notification channel. Owners only.',
        {
          description:
            'Slack, Teams and Webhook take `url` (https; http and addresses that are not public only within ' +
            'COSTWATCH_OUTBOUND_ALLOW); Email takes `emails` and/or `userIds`. A Webhook channel is answered with ' +
            `its signing secret (\`secret\`), this once. ${SECRETS_NOTE}`,
          body: ref(CreateChannelRequest),
          response: { 201: ref(CreatedChannel), ...bodyProblems(), ...problemResponses(403) },
        },
        'Extensions',
      ),
      config: owners,
    },
    async (req, reply) => {
      const who = req.principal!
      const created = await channels.create(who.organisationId, { actor: who.actor, origin: req.ip }, req.body)
      return reply.code(201).header('Location', `${API}/notification-channels/${created.id}`).send(created)
    },
  )

  app.get(
    '/notification-channels',
    {
      schema: publicOperation(
        'ListNotificationChannels',
        "The organisation's notification channels, by name (id last). Owners, and the Admins of a tenancy, who choose channels for the rules of their tenancies (they cannot change channels).",
        {
          querystring: PageQuery,
          response: { 200: Page(ref(ChannelRecord), 'NotificationChannelPage'), ...problemResponses(400, 403) },
        },
        'Extensions',
      ),
      config: { requires: 'any' },
    },
    async (req, reply) => {
      if (!hasRoleSomewhere(req.principal!, 'Admin')) {
        throw ApiError.forbidden('Listing channels needs the owner role, or the Admin role on a tenancy.')
      }
      return replyPage(req, reply, await channels.list(req.principal!.organisationId, pagingOf(req.query)))
    },
  )

  app.get(
    '/notification-channels/:channelId',
    {
      schema: publicOperation(
        'GetNotificationChannel',
        'One notification channel. Owners only.',
        {
          description: SECRETS_NOTE,
          params: ChannelParams,
          response: { 200: ref(ChannelRecord), ...problemResponses(400, 403, 404) },
        },
        'Extensions',
      ),
      config: owners,
    },
    async (req) => channels.get(req.principal!.organisationId, req.params.channelId),
  )

  app.patch(
    '/notification-channels/:channelId',
    {
      schema: publicOperation(
        'UpdateNotificationChannel',
        'Changes a notification channel. Owners only.',
        {
          description:
            'Absent fields are unchanged; the type cannot change. `enabled: true` enables a channel that was ' +
            'disabled (by a person, or by a 410 or failed deliveries) and clears `disabledReason`. A new `url` ' +
            'keeps a Webhook channel’s signing secret.',
          params: ChannelParams,
          body: ref(PatchChannelRequest),
          response: { 200: ref(ChannelRecord), ...bodyProblems(), ...problemResponses(403, 404, 409) },
        },
        'Extensions',
      ),
      config: owners,
    },
    async (req) => {
      const who = req.principal!
      return channels.update(who.organisationId, { actor: who.actor, origin: req.ip }, req.params.channelId, req.body)
    },
  )

  app.delete(
    '/notification-channels/:channelId',
    {
      schema: publicOperation(
        'DeleteNotificationChannel',
        'Deletes a notification channel with its deliveries. Owners only.',
        {
          description: 'Rules that name it no longer send to it.',
          params: ChannelParams,
          response: {
            204: { description: 'Deleted with its deliveries.', type: 'null' },
            ...problemResponses(400, 403, 404),
          },
        },
        'Extensions',
      ),
      config: owners,
    },
    async (req, reply) => {
      const who = req.principal!
      await channels.delete(who.organisationId, { actor: who.actor, origin: req.ip }, req.params.channelId)
      return reply.code(204).send()
    },
  )

  app.post(
    '/notification-channels/:channelId/rotate-secret',
    {
      schema: publicOperation(
        'RotateNotificationChannelSecret',
        'A new signing secret for a Webhook channel, answered this once. Owners only.',
        {
          description:
            'The secret it replaces keeps signing beside the new one (two signatures in `webhook-signature`) until ' +
            '`previousSecretUntil`, 24 hours, so receivers can be updated without losing a message. Rotating again ' +
            'within those 24 hours retires the older of the two at once. 409 for a channel that is not a Webhook.',
          params: ChannelParams,
          response: { 200: ref(ChannelSecret), ...problemResponses(400, 403, 404, 409) },
        },
        'Extensions',
      ),
      config: owners,
    },
    async (req) => {
      const who = req.principal!
      return channels.rotateSecret(who.organisationId, { actor: who.actor, origin: req.ip }, req.params.channelId)
    },
  )
}
