import type { Clock } from '../../platform/clock.js'
import { ApiError } from '../../platform/http/errors.js'
import { type Paging, pageOf } from '../../platform/http/paging.js'
import { toDay } from '../../platform/time.js'

import type { CostReads } from '../costs/read/index.js'
import type { ChartScope, ResolvedChartScope } from '../shared/chart-scope.js'

import type { ResourceGroupRecord, ResourceRecord, SubscriptionRecord, TenantTags } from './schemas.js'
import {
  type InventoryStore,
  parseTags,
  type ResourceFilter,
  type ResourceGroupFilter,
  type ResourceSort,
  type TagCondition,
} from './store.js'
import { summariseTags } from './tags.js'

/** Azure's limits on a tag: 512 characters for a key, 256 for a value. */
const TAG_KEY_MAX = 512
const TAG_VALUE_MAX = 256

/**
 * `key:value` (the key ends at the first colon; the value may be empty, as Azure allows) or `key` alone, as the
 * `tag` query parameter writes them. Any bad one is a 400 naming it, and nothing is read.
 */
export function parseTagConditions(raw: readonly string[] | undefined): TagCondition[] {
  const errors: string[] = []
  const conditions = (raw ?? []).map((text) => {
    const colon = text.indexOf(':')
    const key = (colon < 0 ? text : text.slice(0, colon)).trim()
    const value = colon < 0 ? undefined : text.slice(colon + 1)
    if (key === '') errors.push(`"${text}": the tag key before ":" must not be empty`)
    else if (key.length > TAG_KEY_MAX)
      errors.push(`"${key.slice(0, 20)}…": a tag key has at most ${TAG_KEY_MAX} characters`)
    if (value !== undefined && value.length > TAG_VALUE_MAX)
      errors.push(`the value of "${key}" has more than ${TAG_VALUE_MAX} characters`)
    return value === undefined ? { key } : { key, value }
  })
  if (errors.length) throw ApiError.invalid({ tag: errors })
  return conditions
}

/** The name search as given, trimmed; blank would match everything, which a caller never means. */
export function parseSearch(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const text = raw.trim()
  if (text === '') throw ApiError.invalid({ search: ['must not be blank'] })
  return text
}

type SubscriptionRow = Awaited<ReturnType<InventoryStore['listSubscriptions']>>['rows'][number]
type GroupRow = Awaited<ReturnType<InventoryStore['resourceGroupsByName']>>[number]
type ResourceRow = NonNullable<Awaited<ReturnType<InventoryStore['getResource']>>>

export function createInventoryService(deps: {
  store: InventoryStore
  costs: Pick<CostReads, 'totalsBy' | 'billingCurrencies'>
  clock: Clock
  /** The tenant's removed resources by lower-cased ARM id (the anomalies feature's rule, wired in services.ts). */
  removals?(tenantId: string, today: string): Promise<ReadonlyMap<string, NonNullable<ResourceRecord['removal']>>>
}) {
  const { store, costs } = deps
  const today = () => toDay(deps.clock.now())

  async function subscriptions(tenantId: string, rows: SubscriptionRow[]): Promise<SubscriptionRecord[]> {
    const totals = await costs.totalsBy(
      tenantId,
      'subscription',
      rows.map((r) => r.subscriptionId),
      today(),
    )
    return rows.map((r) => ({
      subscriptionId: r.subscriptionId,
      tenantId: r.tenantId,
      displayName: r.displayName,
      state: r.state,
      currency: r.currency,
      resourceGroupCount: Number(r.resourceGroupCount ?? 0),
      resourceCount: Number(r.resourceCount ?? 0),
      costs: totals.get(r.subscriptionId)!,
    }))
  }

  async function groups(tenantId: string, rows: GroupRow[]): Promise<ResourceGroupRecord[]> {
    const keyOf = (r: GroupRow) => `${r.subscriptionId}/${r.name.toLowerCase()}`
    const totals = await costs.totalsBy(tenantId, 'resourceGroup', rows.map(keyOf), today())
    return rows.map((r) => ({
      id: r.id,
      armId: r.armId,
      name: r.name,
      subscriptionId: r.subscriptionId,
      tenantId: r.tenantId,
      location: r.location,
      tags: parseTags(r.tags),
      resourceCount: Number(r.resourceCount ?? 0),
      costs: totals.get(keyOf(r))!,
    }))
  }

  async function resources(tenantId: string, rows: ResourceRow[]): Promise<ResourceRecord[]> {
    const [totals, removals] = await Promise.all([
      costs.totalsBy(
        tenantId,
        'resource',
        rows.map((r) => r.armIdLower),
        today(),
      ),
      rows.length > 0 && deps.removals ? deps.removals(tenantId, today()) : null,
    ])
    return rows.map((r) => ({
      id: r.id,
      armId: r.armId,
      name: r.name,
      resourceType: r.resourceType,
      location: r.location,
      subscriptionId: r.subscriptionId,
      resourceGroupName: r.resourceGroupName,
      resourceGroupId: r.resourceGroupId,
      tags: parseTags(r.tags),
      sku: r.sku,
      state: r.state,
      firstSeenAt: r.firstSeenAt,
      lastSeenAt: r.lastSeenAt,
      costs: totals.get(r.armIdLower)!,
      ...(removals?.has(r.armIdLower) ? { removal: removals.get(r.armIdLower)! } : {}),
    }))
  }

  /** The one group of that name (in that subscription, when given): a 404 without one, a 409 naming several. */
  async function oneGroup(tenantId: string, name: string, subscriptionId?: string): Promise<GroupRow> {
    const rows = await store.resourceGroupsByName(tenantId, name, subscriptionId)
    if (rows.length === 0) throw ApiError.notFound(`Resource group ${name}`)
    if (rows.length > 1) {
      const subscriptionIds = rows.map((r) => r.subscriptionId)
      throw ApiError.conflict(
        `Resource group ${name} exists in ${rows.length} subscriptions (${subscriptionIds.join(', ')}); choose one with ?subscriptionId=.`,
        { subscriptionIds },
      )
    }
    return rows[0]!
  }

  return {
    async listSubscriptions(tenantId: string, paging: Paging) {
      const { rows, totalCount } = await store.listSubscriptions(tenantId, paging)
      return pageOf(await subscriptions(tenantId, rows), totalCount, paging)
    },

    async getSubscription(tenantId: string, subscriptionId: string): Promise<SubscriptionRecord> {
      const row = await store.getSubscription(tenantId, subscriptionId)
      if (!row) throw ApiError.notFound(`Subscription ${subscriptionId}`)
      return (await subscriptions(tenantId, [row]))[0]!
    },

    async listResourceGroups(tenantId: string, filter: ResourceGroupFilter, paging: Paging) {
      const { rows, totalCount } = await store.listResourceGroups(tenantId, filter, paging)
      return pageOf(await groups(tenantId, rows), totalCount, paging)
    },

    /** By name, case-insensitively; a name in several subscriptions is a 409 naming them unless one is chosen. */
    async getResourceGroup(tenantId: string, name: string, subscriptionId?: string): Promise<ResourceGroupRecord> {
      return (await groups(tenantId, [await oneGroup(tenantId, name, subscriptionId)]))[0]!
    },

    /**
     * A chart's scope found in the inventory, with the same answers as the records' reads (a 404 when it is not
     * there, a 409 for a group name in several subscriptions): read once for all a chart request draws, its costs
     * and its markers.
     */
    async resolveChartScope(tenantId: string, scope: ChartScope, subscriptionId?: string): Promise<ResolvedChartScope> {
      switch (scope.kind) {
        case 'tenant':
          return { kind: 'tenant' }
        case 'subscription': {
          const row = await store.getSubscription(tenantId, scope.subscriptionId)
          if (!row) throw ApiError.notFound(`Subscription ${scope.subscriptionId}`)
          return { kind: 'subscription', subscriptionId: row.subscriptionId }
        }
        case 'resourceGroup': {
          const group = await oneGroup(tenantId, scope.name, subscriptionId)
          return {
            kind: 'resourceGroup',
            subscriptionId: group.subscriptionId,
            name: group.name,
            tags: parseTags(group.tags),
          }
        }
        case 'resource': {
          const row = await store.getResource(tenantId, scope.resourceId)
          if (!row) throw ApiError.notFound(`Resource ${scope.resourceId}`)
          return { kind: 'resource', armId: row.armId, tags: parseTags(row.tags) }
        }
      }
    },

    async listResources(tenantId: string, filter: ResourceFilter, paging: Paging, sort?: ResourceSort) {
      // A sort by cost ranks in the billing currency, the one the records show.
      const currency = sort === '-last30Days' ? (await costs.billingCurrencies([tenantId])).get(tenantId)! : ''
      const { rows, totalCount } = await store.listResources(
        tenantId,
        filter,
        paging,
        sort ?? 'name',
        today(),
        currency,
      )
      return pageOf(await resources(tenantId, rows), totalCount, paging)
    },

    /** The tag keys of the tenant's resources with their distinct values; with `key`, that key alone. */
    async tags(tenantId: string, key?: string): Promise<TenantTags> {
      return { tenantId, ...summariseTags(await store.tagSets(tenantId), { onlyKey: key }) }
    },

    async resourceTypes(tenantId: string) {
      return { items: await store.resourceTypeCounts(tenantId) }
    },

    async getResource(tenantId: string, id: string): Promise<ResourceRecord> {
      const row = await store.getResource(tenantId, id)
      if (!row) throw ApiError.notFound(`Resource ${id}`)
      return (await resources(tenantId, [row]))[0]!
    },
  }
}
export type InventoryService = ReturnType<typeof createInventoryService>
