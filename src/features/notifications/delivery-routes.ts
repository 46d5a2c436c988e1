import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import type { DeliveryService } from './delivery-service.js'
import { ChannelParams, DeliveryParams, DeliveryRecord, QueuedDelivery } from './schemas.js'

/** A channel's test button, its delivery log and redelivery (owners, like the channels themselves). */
export const deliveryRoutes: FastifyPluginAsyncTypebox<{ deliveries: DeliveryService }> = async (
  app,
  { deliveries },
) => {
  app.post(
    '/notification-channels/:channelId/test',
    {
      schema: publicOperation(
        'TestNotificationChannel',
        'Sends a `test` event to the channel at once. Owners.',
        {
          description:
            'The test names the channel and the organisation; follow it in the delivery log by `deliveryId`. A ' +
            'disabled channel is a 409.',
          params: ChannelParams,
          response: {
            202: { ...ref(QueuedDelivery), description: 'Queued; the worker sends it at once.' },
            ...problemResponses(400, 403, 404, 409),
          },
        },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) => reply.code(202).send(await deliveries.test(req.principal!, req.params.channelId)),
  )

  app.get(
    '/notification-channels/:channelId/deliveries',
    {
      schema: publicOperation(
        'ListNotificationDeliveries',
        "The channel's delivery log, newest first, with each delivery's last attempt. Owners.",
        {
          description:
            'Pending: queued or being sent (`nextAttemptAt` says when the next attempt is due); Succeeded; ' +
            'Accepted (Teams took it; its flow may still fail later); Failed (every attempt failed, a 410, or a ' +
            'disabled channel). `lastError` never holds the URL.',
          params: ChannelParams,
          querystring: PageQuery,
          response: { 200: Page(ref(DeliveryRecord), 'NotificationDeliveryPage'), ...problemResponses(400, 403, 404) },
        },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) =>
      replyPage(req, reply, await deliveries.list(req.principal!, req.params.channelId, pagingOf(req.query))),
  )

  app.post(
    '/notification-channels/:channelId/deliveries/:deliveryId/redeliver',
    {
      schema: publicOperation(
        'RedeliverNotification',
        'Sends a delivery again, with the same `webhook-id` and a fresh schedule of attempts. Owners.',
        {
          description:
            'The redelivery is a new delivery in the log (`deliveryId`); the earlier one keeps its attempts. A ' +
            'receiver that already has the message can tell by its `webhook-id`. A disabled channel is a 409.',
          params: DeliveryParams,
          response: {
            202: { ...ref(QueuedDelivery), description: 'Queued; the worker sends it at once.' },
            ...problemResponses(400, 403, 404, 409),
          },
        },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) =>
      reply.code(202).send(await deliveries.redeliver(req.principal!, req.params.channelId, req.params.deliveryId)),
  )
}
