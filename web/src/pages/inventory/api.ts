import { call, type Page } from '../../api'

/** The inventory records as `/api/app/tenants/{id}/subscriptions`, `/resource-groups` and `/resources` return them. */

export interface CostSummary {
  currency: string
  monthToDate: number
  previousMonth: number
  last30Days: number
}
export type Tags = Record<string, string>

export interface Subscription {
  subscriptionId: string
  displayName: string
  state: string
  currency: string
  resourceGroupCount: number
  resourceCount: number
  costs: CostSummary
}
export interface ResourceGroup {
  id: string
  armId: string
  name: string
  subscriptionId: string
  location: string | null
  tags: Tags
  resourceCount: number
  costs: CostSummary
}
export interface Resource {
  id: string
  armId: string
  name: string
  resourceType: string
  location: string | null
  subscriptionId: string
  resourceGroupName: string
  resourceGroupId: string
  tags: Tags
  sku: string | null
  state: string | null
  costs: CostSummary
}
export interface ResourceFilter {
  subscriptionId?: string
  resourceGroupId?: string
  armResourceName?: string
  resourceType?: string
  /** `key:value` or `key` alone; every one must match. */
  tag?: string[]
  /** A part of the name, any case. */
  search?: string
  sort?: ResourceSort
}
export const RESOURCE_SORTS = [
  { value: 'name', label: 'Name, A to Z' },
  { value: '-name', label: 'Name, Z to A' },
  { value: 'resourceType', label: 'Resource type' },
  { value: '-firstSeenAt', label: 'Newest first' },
  { value: '-last30Days', label: 'Costliest first' },
] as const
export type ResourceSort = (typeof RESOURCE_SORTS)[number]['value']

export interface ResourceTypeCount {
  resourceType: string
  resourceCount: number
}

export const PAGE_SIZE = 50
/** The most a list answers at once: enough for the filter choices of any real estate. */
const ALL = 200

function listPath(
  tenantId: string,
  list: string,
  query: Record<string, string | number | readonly string[] | undefined>,
): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query))
    for (const one of Array.isArray(value) ? value : [value])
      if (one !== undefined && one !== '') params.append(name, `${one}`)
  return `/tenants/${encodeURIComponent(tenantId)}/${list}?${params}`
}

export const inventoryApi = {
  subscriptions: (tenantId: string, page = 1, pageSize = PAGE_SIZE) =>
    call<Page<Subscription>>('GET', listPath(tenantId, 'subscriptions', { page, pageSize })),
  resourceGroups: (
    tenantId: string,
    filter: { subscriptionId?: string; tag?: string[] },
    page = 1,
    pageSize = PAGE_SIZE,
  ) => call<Page<ResourceGroup>>('GET', listPath(tenantId, 'resource-groups', { ...filter, page, pageSize })),
  resources: (tenantId: string, filter: ResourceFilter, page = 1) =>
    call<Page<Resource>>('GET', listPath(tenantId, 'resources', { ...filter, page, pageSize: PAGE_SIZE })),
  /** Choices for the filters: every subscription, every group (of one subscription when given), every type. */
  allSubscriptions: (tenantId: string) => inventoryApi.subscriptions(tenantId, 1, ALL),
  allResourceGroups: (tenantId: string, subscriptionId?: string) =>
    inventoryApi.resourceGroups(tenantId, { subscriptionId }, 1, ALL),
  resourceTypes: (tenantId: string) =>
    call<{ items: ResourceTypeCount[] }>('GET', `/tenants/${encodeURIComponent(tenantId)}/resource-types`),
}
