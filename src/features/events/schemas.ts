import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { ActorRef, Instant, Nullable, PageQuery, StringEnum, Uuid } from '../../platform/http/schemas.js'
import { MAX_VISIBLE_EVENTS } from './constants.js'

export const EventCategories = ['Deployment', 'Launch', 'Campaign', 'Configuration', 'Incident', 'Other'] as const
export type EventCategory = (typeof EventCategories)[number]

export const MAX_PREDICTION_SOURCE = 100
export const MAX_MONTHLY_DELTA = 1e12

export const MarkerPrediction = Type.Object(
  {
    monthlyDelta: Type.Number({
      minimum: -MAX_MONTHLY_DELTA,
      maximum: MAX_MONTHLY_DELTA,
      description: 'The predicted change in monthly cost, in `currency` (negative: a saving).',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. USD.' }),
    source: Type.String({
      minLength: 1,
      maxLength: MAX_PREDICTION_SOURCE,
      description: 'The estimator, e.g. `Infracost` (1 to 100 characters after trimming).',
    }),
    commit: Nullable(
      Type.String({ minLength: 1, maxLength: 200, description: 'The commit the estimate was made for (a SHA).' }),
    ),
    pullRequestUrl: Nullable(
      Type.String({ minLength: 1, maxLength: 2000, description: 'The pull request, an http(s) URL.' }),
    ),
  },
  {
    $id: 'MarkerPrediction',
    additionalProperties: false,
    description: 'Extension: what an estimator predicted the change would cost per month, before it shipped.',
  },
)
export type MarkerPrediction = Static<typeof MarkerPrediction>

/** As sent: commit and pullRequestUrl may be left out (null). */
export const MarkerPredictionInput = Type.Object(
  {
    ...MarkerPrediction.properties,
    commit: Type.Optional(MarkerPrediction.properties.commit),
    pullRequestUrl: Type.Optional(MarkerPrediction.properties.pullRequestUrl),
  },
  {
    $id: 'MarkerPredictionInput',
    additionalProperties: false,
    description:
      'Extension: a predicted change in monthly cost (e.g. from Infracost). commit and pullRequestUrl are optional.',
  },
)
export type MarkerPredictionInput = Static<typeof MarkerPredictionInput>

export const EventRecord = Type.Object(
  {
    id: Uuid,
    tenantId: Uuid,
    occurredAt: Instant,
    title: Type.String({ minLength: 1, maxLength: 200 }),
    category: StringEnum(EventCategories),
    description: Nullable(Type.String({ maxLength: 4000 })),
    tagKey: Nullable(Type.String({ minLength: 1, maxLength: 512 })),
    tagValue: Nullable(Type.String({ maxLength: 256 })),
    createdBy: ActorRef,
    createdAt: Instant,
    updatedAt: Instant,
    prediction: Type.Optional(ref(MarkerPrediction)),
  },
  { $id: 'Event', description: 'An event marker drawn on cost charts.' },
)
export type EventRecord = Static<typeof EventRecord>

const f = EventRecord.properties
export const CreatePublicEventRequest = Type.Object(
  {
    occurredAt: Type.String({
      format: 'date-time',
      description: 'When it happened; any RFC 3339 offset, stored in UTC.',
    }),
    // The bound applies after trimming (the service checks it); the raw text only has a sane ceiling.
    title: Type.String({ minLength: 1, maxLength: 1000, description: '1 to 200 characters after trimming.' }),
    category: f.category,
    description: Type.Optional(f.description),
    tagKey: Type.Optional(f.tagKey),
    tagValue: Type.Optional(f.tagValue),
    prediction: Type.Optional(ref(MarkerPredictionInput)),
  },
  {
    $id: 'CreatePublicEventRequest',
    additionalProperties: false,
    description: 'tagKey and tagValue come together or not at all; without them the marker is universal.',
  },
)
export type CreatePublicEventRequest = Static<typeof CreatePublicEventRequest>

export const PatchPublicEventRequest = Type.Object(
  {
    title: Type.Optional(Nullable(CreatePublicEventRequest.properties.title)),
    description: Type.Optional(Nullable(Type.String({ maxLength: 4000, description: '"" clears the description.' }))),
    category: Type.Optional(Nullable(f.category)),
    occurredAt: Type.Optional(Nullable(CreatePublicEventRequest.properties.occurredAt)),
    tagKey: Type.Optional(f.tagKey),
    tagValue: Type.Optional(f.tagValue),
    clearTag: Type.Optional(
      Type.Boolean({ default: false, description: 'Removes the tag filter; not with tagKey/tagValue.' }),
    ),
    prediction: Type.Optional(Nullable(ref(MarkerPredictionInput))),
    clearPrediction: Type.Optional(
      Type.Boolean({ default: false, description: 'Extension: removes the prediction; not with prediction.' }),
    ),
  },
  {
    $id: 'PatchPublicEventRequest',
    additionalProperties: false,
    description: 'An absent or null field is left unchanged.',
  },
)
export type PatchPublicEventRequest = Static<typeof PatchPublicEventRequest>

export const EventListQuery = Type.Object({
  ...PageQuery.properties,
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive lower bound of occurredAt.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive upper bound of occurredAt.' })),
  category: Type.Optional(f.category),
})

export const EventParams = Type.Object({ tenantId: Uuid, eventId: Uuid }, { additionalProperties: false })

export const CreateEventHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      description:
        'Makes a retried create safe (e.g. a CI step whose response was lost): a repeat with the same key and ' +
        'body within 24 hours answers the first response (same event, 201) and creates nothing; the same key ' +
        'with another body is a 422; a repeat while the first is still in flight is a 409 (retry shortly). ' +
        'Keys are kept per API key and tenant. 1 to 255 visible ASCII characters; a random UUID is a good key.',
    }),
  ),
})

export const ConditionalHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'The ETag of an earlier answer (or a list of them): a 304 without a body while it is current.',
    }),
  ),
})

export const VisibleEventsQuery = Type.Object({
  scope: Type.String({
    minLength: 1,
    maxLength: 1200,
    description:
      'The chart: `tenant`, `subscription:{subscriptionId}`, `resourceGroup:{name}` (case-insensitive) or ' +
      '`resource:{resourceId}` (the resource UUID).',
  }),
  subscriptionId: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Chooses among resource groups of the same name in several subscriptions.',
    }),
  ),
  from: Type.Optional(
    Type.String({ format: 'date-time', description: 'Inclusive lower bound of occurredAt; default `to` - 30 days.' }),
  ),
  to: Type.Optional(
    Type.String({ format: 'date-time', description: 'Inclusive upper bound of occurredAt; default now.' }),
  ),
})

export const VisibleEvents = Type.Object(
  {
    scope: Type.String({ description: 'The scope of the chart, as asked (a resource id in lower case).' }),
    from: Instant,
    to: Instant,
    items: Type.Array(ref(EventRecord), { maxItems: MAX_VISIBLE_EVENTS }),
    truncated: Type.Boolean({
      description: 'True when more than 1,000 markers fall in the range; the oldest are kept.',
    }),
  },
  {
    title: 'VisibleEvents',
    description:
      'The markers on one cost chart, oldest first: universal markers everywhere; tagged markers on broad charts ' +
      '(tenant, subscription), and on a resource or resource-group chart only when its own tags hold the same key ' +
      '(case-insensitive) with the same value (exact).',
  },
)
export type VisibleEvents = Static<typeof VisibleEvents>
