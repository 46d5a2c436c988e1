import { answer, client, type Schemas } from '../../api'

/** The inventory records as `/api/app/tenants/{id}/subscriptions`, `/resource-groups` and `/resources` return them. */
export type Subscription = Schemas['Subscription']
export type ResourceGroup = Schemas['ResourceGroup']
export type Resource = Schemas['Resource']
export type CostSummary = Resource['costs']
export type Tags = Resource['tags']

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

export type ResourceTypeCount = Schemas['ResourceTypeList']['items'][number]

export const PAGE_SIZE = 50
/** The most a list answers at once: enough for the filter choices of any real estate. */
const ALL = 200

const optional = <T extends object>(query: T) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>

export const inventoryApi = {
  subscriptions: (tenantId: string, page = 1, pageSize = PAGE_SIZE) =>
    answer(
      client.GET('/tenants/{tenantId}/subscriptions', { params: { path: { tenantId }, query: { page, pageSize } } }),
    ),
  resourceGroups: (
    tenantId: string,
    filter: { subscriptionId?: string; tag?: string[] },
    page = 1,
    pageSize = PAGE_SIZE,
  ) =>
    answer(
      client.GET('/tenants/{tenantId}/resource-groups', {
        params: { path: { tenantId }, query: { ...optional(filter), page, pageSize } },
      }),
    ),
  resources: (tenantId: string, filter: ResourceFilter, page = 1) =>
    answer(
      client.GET('/tenants/{tenantId}/resources', {
        params: { path: { tenantId }, query: { ...optional(filter), page, pageSize: PAGE_SIZE } },
      }),
    ),
  /** Choices for the filters: every subscription, every group (of one subscription when given), every type. */
  allSubscriptions: (tenantId: string) => inventoryApi.subscriptions(tenantId, 1, ALL),
  allResourceGroups: (tenantId: string, subscriptionId?: string) =>
    inventoryApi.resourceGroups(tenantId, { subscriptionId }, 1, ALL),
  resourceTypes: (tenantId: string) =>
    answer(client.GET('/tenants/{tenantId}/resource-types', { params: { path: { tenantId } } })),
}
