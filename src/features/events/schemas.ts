import { type Static, Type } from 'typebox'
import { ActorRef, Instant, Nullable, PageQuery, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const EventCategories = ['Deployment', 'Launch', 'Campaign', 'Configuration', 'Incident', 'Other'] as const
export type EventCategory = (typeof EventCategories)[number]

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
    title: Type.String({ minLength: 1, maxLength: 200, description: '1 to 200 characters after trimming.' }),
    category: f.category,
    description: Type.Optional(f.description),
    tagKey: Type.Optional(f.tagKey),
    tagValue: Type.Optional(f.tagValue),
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

export const EventParams = Type.Object({ tenantId: Uuid, eventId: Uuid })
