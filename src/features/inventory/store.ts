import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { CpuSample, InventorySnapshot } from '../../connectors/types.js'
import type { Ids } from '../../platform/clock.js'
import type { Database, DialectName } from '../../platform/db/index.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import { addDays } from '../../platform/time.js'

import { resourceCostBetween, resourceKeyOf } from '../costs/read/index.js'

export {
  cpuDays,
  currentResources,
  currentResourceTags,
  inventoryForCosts,
  type ResourceFacts,
  resourceFactsBetween,
  resourceNamesById,
  subscriptionCurrencies,
  taggedResources,
} from './lent.js'

export type Tags = Record<string, string>

/** Tags are stored as a JSON object of strings; anything else in the text is ignored rather than trusted. */
export function parseTags(json: string | null): Tags {
  if (!json) return {}
  try {
    const value: unknown = JSON.parse(json)
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {}
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
  } catch {
    return {}
  }
}

/** Subscription ids are GUIDs, recorded in lower case; a caller may write them in any case. */
function spellings(subscriptionId: string): string[] {
  return [...new Set([subscriptionId, subscriptionId.toLowerCase()])]
}

/** A tag a row must carry: the key compared ignoring case (as Azure does), the value, when given, exactly. */
export interface TagCondition {
  key: string
  value?: string
}

export interface ResourceFilter {
  subscriptionId?: string
  /** The group's id (UUID) or its ARM id. */
  resourceGroupId?: string
  armResourceName?: string
  resourceType?: string
  /** Every one must match. */
  tags?: TagCondition[]
  /** A part of the name, ignoring case. */
  search?: string
}

export interface ResourceGroupFilter {
  subscriptionId?: string
  /** Every one must match. */
  tags?: TagCondition[]
}

export const RESOURCE_SORTS = ['name', '-name', 'resourceType', '-firstSeenAt', '-last30Days'] as const
export type ResourceSort = (typeof RESOURCE_SORTS)[number]

/**
 * A resource's cost in `currency` over the 30 days ending `today`, every charge category, as the cost read path
 * computes it (one lookup of its summary and usually one seek). 0 without cost in the period.
 */
function last30DaysCost(tenantId: string, currency: string, today: string): RawBuilder<number> {
  return resourceCostBetween(tenantId, currency, addDays(today, -29), today, sql<string>`resources.arm_id_lower`)
}

/** `text` as a LIKE pattern that matches it literally anywhere (`\` escapes). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The inventory tables (subscriptions, resource groups, resources) and the daily CPU of virtual machines
 * (cpu_metrics): the lists and lookups the API and cost charts read, and, below, the writes a snapshot or an
 * import makes inside its own transaction.
 */
export function createInventoryStore(db: Kysely<Database>, dialect: DialectName) {
  /**
   * Rows whose `tags` (JSON text, as JSON.stringify wrote it) carry the tag. A LIKE on the text, whose case it
   * ignores as the key's comparison does, first keeps the rows that may match; among them, the key spelled as asked
   * is one cheap lookup, and only another spelling (Environment for environment) unpacks every tag of the row.
   */
  const hasTag = (column: RawBuilder<unknown>, tag: TagCondition) => {
    const { key, value } = tag
    const text = value === undefined ? `${JSON.stringify(key)}:` : `${JSON.stringify(key)}:${JSON.stringify(value)}`
    const valueIs = value === undefined ? sql`` : sql` and j.value = ${value}`
    if (dialect === 'postgres') {
      const asAsked = value === undefined ? sql`${column}::jsonb ? ${key}` : sql`${column}::jsonb ->> ${key} = ${value}`
      return sql<boolean>`(${column} ilike ${containsPattern(text)} escape '\\' and (${asAsked} or exists (
        select 1 from jsonb_each_text(${column}::jsonb) j where lower(j.key) = ${key.toLowerCase()}${valueIs})))`
    }
    // A path names the key in double quotes, which cannot hold a quote or a backslash: those keys take the long way.
    const path = /^[^"\\]*$/.test(key) ? `$."${key}"` : null
    const asAsked =
      path === null
        ? sql`0`
        : value === undefined
          ? sql`json_type(${column}, ${path}) is not null`
          : sql`json_extract(${column}, ${path}) = ${value}`
    return sql<boolean>`(${column} like ${containsPattern(text)} escape '\\' and (${asAsked} or exists (
      select 1 from json_each(${column}) j where lower(j.key) = ${key.toLowerCase()}${valueIs})))`
  }

  const subscriptionRows = (tenantId: string) =>
    db
      .selectFrom('subscriptions as s')
      .where('s.tenantId', '=', tenantId)
      .select((eb) => [
        's.subscriptionId',
        's.tenantId',
        's.displayName',
        's.state',
        's.currency',
        eb
          .selectFrom('resourceGroups as g')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('g.tenantId', '=', 's.tenantId')
          .whereRef('g.subscriptionId', '=', 's.subscriptionId')
          .as('resourceGroupCount'),
        eb
          .selectFrom('resources as r')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('r.tenantId', '=', 's.tenantId')
          .whereRef('r.subscriptionId', '=', 's.subscriptionId')
          .as('resourceCount'),
      ])
  const groupRows = (tenantId: string) =>
    db
      .selectFrom('resourceGroups as g')
      .where('g.tenantId', '=', tenantId)
      .select((eb) => [
        'g.id',
        'g.armId',
        'g.name',
        'g.subscriptionId',
        'g.tenantId',
        'g.location',
        'g.tags',
        eb
          .selectFrom('resources as r')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('r.resourceGroupId', '=', 'g.id')
          .as('resourceCount'),
      ])
  const resourceRows = (tenantId: string, filter: ResourceFilter) => {
    const group = filter.resourceGroupId
    return (
      db
        .selectFrom('resources')
        .where('tenantId', '=', tenantId)
        .$if(filter.subscriptionId !== undefined, (qb) =>
          qb.where('subscriptionId', '=', filter.subscriptionId!.toLowerCase()),
        )
        .$if(group !== undefined && UUID.test(group), (qb) => qb.where('resourceGroupId', '=', group!.toLowerCase()))
        .$if(group !== undefined && !UUID.test(group), (qb) =>
          qb.where('resourceGroupId', 'in', (eb) =>
            eb
              .selectFrom('resourceGroups')
              .select('id')
              .where('tenantId', '=', tenantId)
              .where(sql`lower(arm_id)`, '=', group!.toLowerCase()),
          ),
        )
        .$if(filter.armResourceName !== undefined, (qb) =>
          qb.where(sql`lower(name)`, '=', filter.armResourceName!.toLowerCase()),
        )
        .$if(filter.resourceType !== undefined, (qb) =>
          qb.where(sql`lower(resource_type)`, '=', filter.resourceType!.toLowerCase()),
        )
        // No index serves a substring: the tenant's rows are scanned, which the tenant's index bounds.
        .$if(filter.search !== undefined, (qb) =>
          qb.where(sql`lower(name)`, 'like', sql`${containsPattern(filter.search!.toLowerCase())} escape '\\'`),
        )
        .$if((filter.tags ?? []).length > 0, (qb) =>
          qb.where((eb) => eb.and(filter.tags!.map((tag) => hasTag(sql.ref('tags'), tag)))),
        )
    )
  }
  return {
    /** Group names by `{subscriptionId}/{lower-cased name}`, the key cost rows carry. */
    async groupNames(tenantId: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('resourceGroups')
        .select(['subscriptionId', 'name'])
        .where('tenantId', '=', tenantId)
        .execute()
      return new Map(rows.map((r) => [`${r.subscriptionId}/${r.name.toLowerCase()}`, r.name]))
    },

    /** Subscription display names by subscription id (as written and lower-cased, the key cost rows carry). */
    async subscriptionNames(tenantId: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('subscriptions')
        .select(['subscriptionId', 'displayName'])
        .where('tenantId', '=', tenantId)
        .execute()
      const names = new Map<string, string>()
      for (const r of rows) {
        if (!r.displayName) continue
        names.set(r.subscriptionId, r.displayName)
        names.set(r.subscriptionId.toLowerCase(), r.displayName)
      }
      return names
    },

    /** The names of a few resources, by key (those of the groups a chart shows, not the tenant's all). */
    async resourceNames(tenantId: string, keys: string[]): Promise<Map<string, string>> {
      if (keys.length === 0) return new Map()
      const rows = await db
        .selectFrom('resources')
        .select(['armIdLower', 'name'])
        .where('tenantId', '=', tenantId)
        .where('armIdLower', 'in', keys)
        .execute()
      return new Map(rows.map((r) => [r.armIdLower, r.name]))
    },

    /** Name and tags of resources by lower-cased ARM id, the key cost rows carry. */
    async resourcesByKey(tenantId: string): Promise<Map<string, { id: string; name: string; tags: Tags }>> {
      const rows = await db
        .selectFrom('resources')
        .select(['id', 'armIdLower', 'name', 'tags'])
        .where('tenantId', '=', tenantId)
        .execute()
      return new Map(rows.map((r) => [r.armIdLower, { id: r.id, name: r.name, tags: parseTags(r.tags) }]))
    },

    /**
     * The lower-cased ARM ids of the tenant's resources not seen since `seenSince` (the start of its latest
     * collection): deleted at the provider, since a collection lists every resource it finds.
     */
    async resourceKeysNotSeenSince(tenantId: string, seenSince: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('resources')
        .select('armIdLower')
        .where('tenantId', '=', tenantId)
        .where('lastSeenAt', '<', seenSince)
        .execute()
      return new Set(rows.map((r) => r.armIdLower))
    },

    /** Ordered by display name, then id. */
    async listSubscriptions(tenantId: string, paging: Paging) {
      const [rows, total] = await Promise.all([
        subscriptionRows(tenantId)
          .orderBy('s.displayName')
          .orderBy('s.subscriptionId')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        db
          .selectFrom('subscriptions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenantId', '=', tenantId)
          .executeTakeFirstOrThrow(),
      ])
      return { rows, totalCount: Number(total.n) }
    },

    async getSubscription(tenantId: string, subscriptionId: string) {
      return (
        (await subscriptionRows(tenantId)
          .where('s.subscriptionId', '=', subscriptionId.toLowerCase())
          .executeTakeFirst()) ?? null
      )
    },

    /** Ordered by name (case-insensitive), subscription, then id. */
    async listResourceGroups(tenantId: string, filter: ResourceGroupFilter, paging: Paging) {
      const { subscriptionId, tags = [] } = filter
      const base = groupRows(tenantId)
        .$if(subscriptionId !== undefined, (qb) => qb.where('g.subscriptionId', '=', subscriptionId!.toLowerCase()))
        .$if(tags.length > 0, (qb) => qb.where((eb) => eb.and(tags.map((tag) => hasTag(sql.ref('g.tags'), tag)))))
      const [rows, total] = await Promise.all([
        base
          .orderBy('g.nameLower')
          .orderBy('g.subscriptionId')
          .orderBy('g.id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        db
          .selectFrom('resourceGroups')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenantId', '=', tenantId)
          .$if(subscriptionId !== undefined, (qb) => qb.where('subscriptionId', '=', subscriptionId!.toLowerCase()))
          .$if(tags.length > 0, (qb) => qb.where((eb) => eb.and(tags.map((tag) => hasTag(sql.ref('tags'), tag)))))
          .executeTakeFirstOrThrow(),
      ])
      return { rows, totalCount: Number(total.n) }
    },

    /**
     * The tenant's resource types with how many resources each has, by type; types that differ only in case are
     * one (as Azure treats them), shown in the first spelling by sort order.
     */
    async resourceTypeCounts(tenantId: string) {
      const rows = await db
        .selectFrom('resources')
        .select((eb) => [eb.fn.min('resourceType').as('resourceType'), eb.fn.countAll<number>().as('resourceCount')])
        .where('tenantId', '=', tenantId)
        .groupBy(sql`lower(resource_type)`)
        .orderBy(sql`lower(resource_type)`)
        .execute()
      return rows.map((r) => ({ resourceType: r.resourceType, resourceCount: Number(r.resourceCount) }))
    },

    async resourceGroupsByName(tenantId: string, name: string, subscriptionId?: string) {
      return groupRows(tenantId)
        .where('g.nameLower', '=', name.toLowerCase())
        .$if(subscriptionId !== undefined, (qb) => qb.where('g.subscriptionId', '=', subscriptionId!.toLowerCase()))
        .orderBy('g.subscriptionId')
        .execute()
    },

    /**
     * Ordered by name (or as `sort` asks), then id, so that pages never repeat or skip a row. `-last30Days`: by
     * the cost over the 30 days ending `today` in the tenant's billing currency (what the records show), highest
     * first, then by name.
     */
    async listResources(
      tenantId: string,
      filter: ResourceFilter,
      paging: Paging,
      sort: ResourceSort,
      today: string,
      currency: string,
    ) {
      const [rows, total] = await Promise.all([
        resourceRows(tenantId, filter)
          .selectAll()
          .$if(sort === '-last30Days', (qb) =>
            qb.orderBy(last30DaysCost(tenantId, currency, today), 'desc').orderBy('name'),
          )
          .$if(sort === 'name', (qb) => qb.orderBy('name'))
          .$if(sort === '-name', (qb) => qb.orderBy('name', 'desc'))
          .$if(sort === 'resourceType', (qb) => qb.orderBy(sql`lower(resource_type)`).orderBy('name'))
          .$if(sort === '-firstSeenAt', (qb) => qb.orderBy('firstSeenAt', 'desc').orderBy('name'))
          .orderBy('id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        resourceRows(tenantId, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ])
      return { rows, totalCount: Number(total.n) }
    },

    async getResource(tenantId: string, id: string) {
      return (
        (await db
          .selectFrom('resources')
          .selectAll()
          .where('tenantId', '=', tenantId)
          .where('id', '=', id)
          .executeTakeFirst()) ?? null
      )
    },

    async subscriptionExists(tenantId: string, subscriptionId: string): Promise<boolean> {
      const row = await db
        .selectFrom('subscriptions')
        .select('subscriptionId')
        .where('tenantId', '=', tenantId)
        .where('subscriptionId', 'in', spellings(subscriptionId))
        .executeTakeFirst()
      return row !== undefined
    },

    /**
     * The tenant's distinct tag sets and how many resources carry each: resources of one group mostly share a
     * set, so this is far fewer rows than resources, and the keys and values are counted from it (tags.ts).
     */
    async tagSets(tenantId: string): Promise<{ tags: string | null; resources: number }[]> {
      const rows = await db
        .selectFrom('resources')
        .select((eb) => ['tags', eb.fn.countAll<number>().as('n')])
        .where('tenantId', '=', tenantId)
        .groupBy('tags')
        .execute()
      return rows.map((r) => ({ tags: r.tags, resources: Number(r.n) }))
    },

    /** A resource's own tags, or null when the tenant has no such resource. */
    async resourceTags(tenantId: string, resourceId: string): Promise<Tags | null> {
      const row = await db
        .selectFrom('resources')
        .select('tags')
        .where('tenantId', '=', tenantId)
        .where('id', '=', resourceId)
        .executeTakeFirst()
      return row ? parseTags(row.tags) : null
    },

    /** Groups of that name (case-insensitive, as Azure names are), in one subscription when it is given. */
    async resourceGroupsNamed(tenantId: string, name: string, subscriptionId?: string) {
      const rows = await db
        .selectFrom('resourceGroups')
        .select(['id', 'subscriptionId', 'tags'])
        .where('tenantId', '=', tenantId)
        .where('nameLower', '=', name.toLowerCase())
        .$if(subscriptionId !== undefined, (qb) => qb.where('subscriptionId', 'in', spellings(subscriptionId!)))
        .orderBy('subscriptionId')
        .execute()
      return rows.map((r) => ({ id: r.id, subscriptionId: r.subscriptionId, tags: parseTags(r.tags) }))
    },

    /** Daily CPU of one resource (its ARM id, in any case) from `from` to `to`, both included, by date. */
    async dailyCpu(tenantId: string, armId: string, from: string, to: string) {
      return db
        .selectFrom('cpuMetrics')
        .select(['date', 'averagePercent', 'maxPercent', 'p95Percent'])
        .where('tenantId', '=', tenantId)
        .where('resourceKey', '=', resourceKeyOf(armId))
        .where('date', '>=', from)
        .where('date', '<=', to)
        .orderBy('date')
        .execute()
    },
  }
}
export type InventoryStore = ReturnType<typeof createInventoryStore>

const SYNC_BATCH = 200

function groupKey(subscriptionId: string, name: string): string {
  return `/subscriptions/${subscriptionId}/resourcegroups/${name}`.toLowerCase()
}

/**
 * Records a snapshot's inventory inside the run's transaction. Rows are matched by natural keys
 * (subscription id, lower-cased ARM id), so re-runs update in place; what this snapshot did not see keeps its
 * older `lastSeenAt`, which is how a deleted resource shows.
 */
export async function syncInventory(
  trx: Kysely<Database>,
  tenantId: string,
  inventory: InventorySnapshot,
  seenAt: string,
  ids: Ids,
  /** A partial view (a FOCUS file): it names what was billed but not states, SKUs or properties; keep those. */
  options: { partial?: boolean } = {},
): Promise<{ subscriptions: number; resourceGroups: number; resources: number }> {
  for (const s of inventory.subscriptions) {
    await trx
      .insertInto('subscriptions')
      .values({
        tenantId,
        ...s,
        subscriptionId: s.subscriptionId.toLowerCase(),
        firstSeenAt: seenAt,
        lastSeenAt: seenAt,
      })
      .onConflict((oc) =>
        oc.columns(['tenantId', 'subscriptionId']).doUpdateSet({
          displayName: s.displayName,
          ...(options.partial ? {} : { state: s.state }),
          currency: s.currency,
          lastSeenAt: seenAt,
        }),
      )
      .execute()
  }

  const existingGroups = new Map(
    (await trx.selectFrom('resourceGroups').select(['id', 'armId']).where('tenantId', '=', tenantId).execute()).map(
      (g) => [g.armId.toLowerCase(), g.id],
    ),
  )
  const groupIds = new Map<string, { id: string; name: string }>()
  const upsertGroup = async (g: {
    subscriptionId: string
    name: string
    location: string | null
    tags: Record<string, string>
  }) => {
    const key = groupKey(g.subscriptionId, g.name)
    const known = existingGroups.get(key)
    const armId = `/subscriptions/${g.subscriptionId.toLowerCase()}/resourceGroups/${g.name}`
    if (known) {
      await trx
        .updateTable('resourceGroups')
        .set(
          options.partial
            ? { lastSeenAt: seenAt }
            : {
                name: g.name,
                nameLower: g.name.toLowerCase(),
                location: g.location,
                tags: JSON.stringify(g.tags),
                lastSeenAt: seenAt,
              },
        )
        .where('id', '=', known)
        .execute()
      groupIds.set(key, { id: known, name: g.name })
      return
    }
    const id = ids.uuid()
    await trx
      .insertInto('resourceGroups')
      .values({
        id,
        tenantId,
        subscriptionId: g.subscriptionId.toLowerCase(),
        name: g.name,
        nameLower: g.name.toLowerCase(),
        armId,
        location: g.location,
        tags: JSON.stringify(g.tags),
        firstSeenAt: seenAt,
        lastSeenAt: seenAt,
      })
      .execute()
    existingGroups.set(key, id)
    groupIds.set(key, { id, name: g.name })
  }
  for (const g of inventory.resourceGroups) await upsertGroup(g)
  // A resource may name a group the inventory did not list (permissions, timing): record the group too.
  for (const r of inventory.resources) {
    if (r.resourceGroupName !== null && !groupIds.has(groupKey(r.subscriptionId, r.resourceGroupName))) {
      await upsertGroup({ subscriptionId: r.subscriptionId, name: r.resourceGroupName, location: r.location, tags: {} })
    }
  }

  const existingResources = new Map(
    (await trx.selectFrom('resources').select(['id', 'armIdLower']).where('tenantId', '=', tenantId).execute()).map(
      (r) => [r.armIdLower, r.id],
    ),
  )
  const newerTags = sql`excluded.tags_at is null or resources.tags_at is null or excluded.tags_at >= resources.tags_at`
  for (let i = 0; i < inventory.resources.length; i += SYNC_BATCH) {
    const values = inventory.resources.slice(i, i + SYNC_BATCH).map((r) => {
      const armIdLower = r.armId.toLowerCase()
      // A resource of a cloud without resource groups (AWS, Google Cloud) has none.
      const group = r.resourceGroupName === null ? null : groupIds.get(groupKey(r.subscriptionId, r.resourceGroupName))!
      return {
        id: existingResources.get(armIdLower) ?? ids.uuid(),
        tenantId,
        subscriptionId: r.subscriptionId.toLowerCase(),
        resourceGroupId: group?.id ?? null,
        resourceGroupName: group?.name ?? null,
        armId: r.armId,
        armIdLower,
        name: r.name,
        resourceType: r.resourceType,
        location: r.location,
        tags: JSON.stringify(r.tags),
        tagsAt: r.tagsSeenAt ?? null,
        sku: r.sku,
        state: r.state,
        properties: JSON.stringify(r.properties),
        firstSeenAt: seenAt,
        lastSeenAt: seenAt,
      }
    })
    await trx
      .insertInto('resources')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['tenantId', 'armIdLower']).doUpdateSet((eb) => ({
          subscriptionId: eb.ref('excluded.subscriptionId'),
          resourceGroupId: eb.ref('excluded.resourceGroupId'),
          resourceGroupName: eb.ref('excluded.resourceGroupName'),
          armId: eb.ref('excluded.armId'),
          name: eb.ref('excluded.name'),
          resourceType: eb.ref('excluded.resourceType'),
          location: eb.ref('excluded.location'),
          // Tags read from an older charge period than those kept (an old billing period imported alone) stay.
          ...(options.partial
            ? {
                tags: sql<string>`case when ${newerTags} then excluded.tags else resources.tags end`,
                tagsAt: sql<string | null>`case when ${newerTags} then excluded.tags_at else resources.tags_at end`,
              }
            : { tags: eb.ref('excluded.tags'), tagsAt: eb.ref('excluded.tagsAt') }),
          ...(options.partial
            ? {}
            : {
                sku: eb.ref('excluded.sku'),
                state: eb.ref('excluded.state'),
                properties: eb.ref('excluded.properties'),
              }),
          lastSeenAt: eb.ref('excluded.lastSeenAt'),
        })),
      )
      .execute()
  }
  return {
    subscriptions: inventory.subscriptions.length,
    resourceGroups: groupIds.size,
    resources: inventory.resources.length,
  }
}

/** Records a snapshot's CPU samples inside the run's transaction; a day collected again replaces its sample. */
export async function saveCpuSamples(trx: Kysely<Database>, tenantId: string, samples: readonly CpuSample[]) {
  for (const s of samples) {
    await trx
      .insertInto('cpuMetrics')
      .values({
        tenantId,
        resourceKey: resourceKeyOf(s.resourceArmId),
        date: s.date,
        averagePercent: s.averagePercent,
        maxPercent: s.maxPercent,
        p95Percent: s.p95Percent,
      })
      .onConflict((oc) =>
        oc
          .columns(['tenantId', 'resourceKey', 'date'])
          .doUpdateSet({ averagePercent: s.averagePercent, maxPercent: s.maxPercent, p95Percent: s.p95Percent }),
      )
      .execute()
  }
}
