import { type Static, Type } from 'typebox'
import { Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'
import { ChannelTypes, DeliveryStatuses, EventTypes } from './constants.js'

const Emails = Type.Array(Type.String({ format: 'email', maxLength: 320 }), {
  maxItems: 50,
  uniqueItems: true,
  description: 'Email channels: addresses to send to.',
})
const UserIds = Type.Array(Uuid, {
  maxItems: 200,
  uniqueItems: true,
  description: 'Email channels: users of the organisation, each at the address of their account.',
})
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'Slack: an incoming-webhook URL; Teams: a Workflows webhook URL; Webhook: any https URL. Never returned ' +
    '(it is a credential). http, and addresses that are not public, only within COSTWATCH_OUTBOUND_ALLOW.',
})

export const ChannelRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: StringEnum(ChannelTypes),
    enabled: Type.Boolean(),
    disabledReason: Nullable(
      Type.String({
        description:
          'Why the channel was disabled (a 410 answer, failures on every attempt); null when enabled or disabled by a person.',
      }),
    ),
    hasSecret: Type.Boolean({ description: 'Webhook channels: a signing secret is set (it is never returned).' }),
    urlHost: Nullable(Type.String({ description: 'The host the URL points to (the URL itself is never returned).' })),
    emails: Nullable(Emails),
    userIds: Nullable(UserIds),
    previousSecretUntil: Nullable(
      Type.String({
        format: 'date-time',
        description: 'Webhook channels after a rotation: until when the previous secret signs beside the new one.',
      }),
    ),
    createdAt: Instant,
    updatedAt: Instant,
  },
  {
    $id: 'NotificationChannel',
    description: 'Where alerts go: e-mail, a Slack or Teams channel, or a signed webhook.',
  },
)
export type ChannelRecord = Static<typeof ChannelRecord>

export const CreatedChannel = Type.Object(
  {
    ...ChannelRecord.properties,
    secret: Type.Optional(
      Type.String({
        description:
          'Webhook channels: the signing secret (`whsec_` and base64), shown this once. Verify `webhook-signature` with it.',
      }),
    ),
  },
  { $id: 'CreatedNotificationChannel' },
)
export type CreatedChannel = Static<typeof CreatedChannel>

export const CreateChannelRequest = Type.Object(
  {
    name: ChannelRecord.properties.name,
    type: ChannelRecord.properties.type,
    url: Type.Optional(Url),
    emails: Type.Optional(Emails),
    userIds: Type.Optional(UserIds),
  },
  {
    $id: 'CreateNotificationChannelRequest',
    additionalProperties: false,
    description: 'Slack, Teams and Webhook take `url`; Email takes `emails` and/or `userIds` (at least one recipient).',
  },
)
export type CreateChannelRequest = Static<typeof CreateChannelRequest>

export const PatchChannelRequest = Type.Object(
  {
    name: Type.Optional(ChannelRecord.properties.name),
    url: Type.Optional(Url),
    emails: Type.Optional(Emails),
    userIds: Type.Optional(UserIds),
    enabled: Type.Optional(
      Type.Boolean({ description: 'true enables a disabled channel again (and clears disabledReason).' }),
    ),
  },
  {
    $id: 'PatchNotificationChannelRequest',
    additionalProperties: false,
    description: 'Absent fields are unchanged.',
  },
)
export type PatchChannelRequest = Static<typeof PatchChannelRequest>

export const ChannelSecret = Type.Object(
  {
    secret: Type.String({ description: 'The new signing secret, shown this once.' }),
    previousSecretUntil: Type.String({
      format: 'date-time',
      description: 'Until when the previous secret still signs.',
    }),
  },
  { $id: 'NotificationChannelSecret' },
)

export const DeliveryRecord = Type.Object(
  {
    id: Uuid,
    channelId: Uuid,
    ruleId: Nullable(Uuid),
    eventType: StringEnum(EventTypes),
    webhookId: Type.String({
      description: 'Standard Webhooks `webhook-id`: the same on every attempt and redelivery.',
    }),
    status: StringEnum(DeliveryStatuses, {
      description:
        'Accepted: Teams took the request (its flow may still fail later); Failed: every attempt failed, or a 410.',
    }),
    attempts: Type.Integer({ minimum: 0 }),
    lastStatusCode: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    latencyMs: Nullable(Type.Integer({ minimum: 0 })),
    nextAttemptAt: Nullable(Instant),
    createdAt: Instant,
    completedAt: Nullable(Instant),
  },
  { $id: 'NotificationDelivery', description: 'One message to one channel, with its attempts.' },
)
export type DeliveryRecord = Static<typeof DeliveryRecord>

export const QueuedDelivery = Type.Object({ deliveryId: Uuid }, { $id: 'QueuedNotificationDelivery' })

export const ChannelParams = Type.Object({ channelId: Uuid })
export const DeliveryParams = Type.Object({ channelId: Uuid, deliveryId: Uuid })
