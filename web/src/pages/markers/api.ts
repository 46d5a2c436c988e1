import { answer, client, type EventCategory, type Page, type Schemas } from '../../api'

/** A marker as the event operations return it: the chart's fields, its creator and its times. */
export type MarkerRecord = Schemas['Event']
export type MarkerPage = Page<MarkerRecord>

export interface MarkerFilter {
  category: EventCategory | ''
  /** YYYY-MM-DD, UTC days, both included; '' for no bound. */
  from: string
  to: string
  page: number
}

/** What the marker form holds: its fields as typed. */
export interface MarkerInput {
  category: EventCategory
  occurredAt: string
  title: string
  description: string
  tagKey: string
  tagValue: string
}

export type CostImpact = Schemas['EventCostImpact']
export type TagKey = Schemas['TenantTags']['keys'][number]

export const PAGE_SIZE = 20

const path = (tenantId: string) => ({ path: { tenantId } })
const onePath = (tenantId: string, eventId: string) => ({ path: { tenantId, eventId } })

export const markersApi = {
  list(tenantId: string, filter: MarkerFilter) {
    return answer(
      client.GET('/tenants/{tenantId}/events', {
        params: {
          ...path(tenantId),
          query: {
            page: filter.page,
            pageSize: PAGE_SIZE,
            ...(filter.category ? { category: filter.category } : {}),
            ...(filter.from ? { from: `${filter.from}T00:00:00.000Z` } : {}),
            ...(filter.to ? { to: `${filter.to}T23:59:59.999Z` } : {}),
          },
        },
      }),
    )
  },

  create(tenantId: string, input: MarkerInput) {
    return answer(
      client.POST('/tenants/{tenantId}/events', {
        params: path(tenantId),
        body: {
          category: input.category,
          occurredAt: input.occurredAt,
          title: input.title,
          ...(input.description ? { description: input.description } : {}),
          ...(input.tagKey || input.tagValue ? { tagKey: input.tagKey || null, tagValue: input.tagValue || null } : {}),
        },
      }),
    )
  },

  /** Sends every field: an emptied description clears it, and so does an emptied tag filter (clearTag). */
  update(tenantId: string, marker: MarkerRecord, input: MarkerInput) {
    const hasTag = Boolean(input.tagKey || input.tagValue)
    return answer(
      client.PATCH('/tenants/{tenantId}/events/{eventId}', {
        params: onePath(tenantId, marker.id),
        body: {
          category: input.category,
          occurredAt: input.occurredAt,
          title: input.title,
          description: input.description,
          ...(hasTag ? { tagKey: input.tagKey || null, tagValue: input.tagValue || null } : {}),
          ...(!hasTag && marker.tagKey ? { clearTag: true } : {}),
        },
      }),
    )
  },

  remove(tenantId: string, id: string) {
    return answer(client.DELETE('/tenants/{tenantId}/events/{eventId}', { params: onePath(tenantId, id) }))
  },

  impact(tenantId: string, id: string) {
    return answer(
      client.GET('/tenants/{tenantId}/events/{eventId}/impact', {
        params: { ...onePath(tenantId, id), query: { days: 7 } },
      }),
    )
  },

  /** The tenant's tag keys with their values, for suggestions; with `key`, that key's values in full. */
  tags(tenantId: string, key?: string) {
    return answer(client.GET('/tenants/{tenantId}/tags', { params: { ...path(tenantId), query: key ? { key } : {} } }))
  },
}
