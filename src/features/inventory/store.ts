import { type Kysely, sql } from 'kysely'
import type { Database } from '../../platform/db/index.js'
import { offsetOf, type Paging } from '../../platform/http/schemas.js'

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

/**
 * The inventory tables (subscriptions, resource groups, resources). For now only the lookups that cost charts
 * need; the inventory feature adds its lists and upserts here.
 */
export interface ResourceFilter {
  subscriptionId?: string
  /** The group's id (UUID) or its ARM id. */
  resourceGroupId?: string
  armResourceName?: string
  resourceType?: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function createInventoryStore(db: Kysely<Database>) {
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
    return db
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

    /** Name and tags of resources by lower-cased ARM id, the key cost rows carry. */
    async resourcesByKey(tenantId: string): Promise<Map<string, { id: string; name: string; tags: Tags }>> {
      const rows = await db
        .selectFrom('resources')
        .select(['id', 'armIdLower', 'name', 'tags'])
        .where('tenantId', '=', tenantId)
        .execute()
      return new Map(rows.map((r) => [r.armIdLower, { id: r.id, name: r.name, tags: parseTags(r.tags) }]))
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
    async listResourceGroups(tenantId: string, subscriptionId: string | undefined, paging: Paging) {
      const base = groupRows(tenantId).$if(subscriptionId !== undefined, (qb) =>
        qb.where('g.subscriptionId', '=', subscriptionId!.toLowerCase()),
      )
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
          .executeTakeFirstOrThrow(),
      ])
      return { rows, totalCount: Number(total.n) }
    },

    async resourceGroupsByName(tenantId: string, name: string, subscriptionId?: string) {
      return groupRows(tenantId)
        .where('g.nameLower', '=', name.toLowerCase())
        .$if(subscriptionId !== undefined, (qb) => qb.where('g.subscriptionId', '=', subscriptionId!.toLowerCase()))
        .orderBy('g.subscriptionId')
        .execute()
    },

    /** Ordered by name, then id. */
    async listResources(tenantId: string, filter: ResourceFilter, paging: Paging) {
      const [rows, total] = await Promise.all([
        resourceRows(tenantId, filter)
          .selectAll()
          .orderBy('name')
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
  }
}
export type InventoryStore = ReturnType<typeof createInventoryStore>
