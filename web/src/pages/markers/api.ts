import { call, type EventCategory, type EventMarker } from '../../api'

/** A marker as the event operations return it: the chart's fields, its creator and its times. */
export interface MarkerRecord extends EventMarker {
  tenantId: string
  createdBy: { type: 'User' | 'ApiKey' | 'System'; id: string | null; name: string | null }
  createdAt: string
  updatedAt: string
}

export interface MarkerPage {
  items: MarkerRecord[]
  page: number
  pageSize: number
  totalCount: number
  totalPages: number
}

export interface MarkerFilter {
  category: EventCategory | ''
  /** YYYY-MM-DD, UTC days, both included; '' for no bound. */
  from: string
  to: string
  page: number
}

export interface MarkerInput {
  category: EventCategory
  occurredAt: string
  title: string
  description: string
  tagKey: string
  tagValue: string
}

export interface CostImpact {
  currency: string
  days: number
  before: { from: string; to: string; cost: number }
  after: { from: string; to: string; cost: number }
  change: number
  changePercent: number | null
  complete: boolean
}

export interface TagKey {
  key: string
  values: string[]
  valuesTruncated: boolean
}

export const PAGE_SIZE = 20

const eventsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/events`

export const markersApi = {
  list(tenantId: string, filter: MarkerFilter) {
    const query = new URLSearchParams({ page: String(filter.page), pageSize: String(PAGE_SIZE) })
    if (filter.category) query.set('category', filter.category)
    if (filter.from) query.set('from', `${filter.from}T00:00:00.000Z`)
    if (filter.to) query.set('to', `${filter.to}T23:59:59.999Z`)
    return call<MarkerPage>('GET', `${eventsPath(tenantId)}?${query}`)
  },

  create(tenantId: string, input: MarkerInput) {
    return call<MarkerRecord>('POST', eventsPath(tenantId), {
      category: input.category,
      occurredAt: input.occurredAt,
      title: input.title,
      ...(input.description ? { description: input.description } : {}),
      ...(input.tagKey || input.tagValue ? { tagKey: input.tagKey || null, tagValue: input.tagValue || null } : {}),
    })
  },

  /** Sends every field: an emptied description clears it, and so does an emptied tag filter (clearTag). */
  update(tenantId: string, marker: MarkerRecord, input: MarkerInput) {
    const hasTag = Boolean(input.tagKey || input.tagValue)
    return call<MarkerRecord>('PATCH', `${eventsPath(tenantId)}/${encodeURIComponent(marker.id)}`, {
      category: input.category,
      occurredAt: input.occurredAt,
      title: input.title,
      description: input.description,
      ...(hasTag ? { tagKey: input.tagKey || null, tagValue: input.tagValue || null } : {}),
      ...(!hasTag && marker.tagKey ? { clearTag: true } : {}),
    })
  },

  remove(tenantId: string, id: string) {
    return call<void>('DELETE', `${eventsPath(tenantId)}/${encodeURIComponent(id)}`)
  },

  impact(tenantId: string, id: string) {
    return call<CostImpact>('GET', `${eventsPath(tenantId)}/${encodeURIComponent(id)}/impact?days=7`)
  },

  /** The tenant's tag keys with their values, for suggestions; with `key`, that key's values in full. */
  tags(tenantId: string, key?: string) {
    const query = key ? `?key=${encodeURIComponent(key)}` : ''
    return call<{ keys: TagKey[] }>('GET', `/tenants/${encodeURIComponent(tenantId)}/tags${query}`)
  },
}
