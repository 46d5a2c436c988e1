/**
 * What the inventory's store lends other features: reads over its tables that the insight rules, reports and the
 * cost paths need (re-exported by store.ts). Costs imports nothing of the inventory: these reach it through
 * `inventoryForCosts` and `currentResourceTags`, handed in where the cost paths are built.
 */
import { type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely'
import { chunk } from '../../platform/chunk.js'
import type { Database, DialectName } from '../../platform/db/index.js'

/**
 * The tenant's current resources, by id: those the latest collection saw (seen since it started, when there was
 * one), what the insight rules judge.
 */
export async function currentResources(db: Kysely<Database>, tenantId: string, seenSince: string | null) {
  return db
    .selectFrom('resources')
    .select([
      'id',
      'armId',
      'armIdLower',
      'name',
      'resourceType',
      'state',
      'sku',
      'tags',
      'properties',
      'subscriptionId',
      'resourceGroupName',
    ])
    .where('tenantId', '=', tenantId)
    .$if(!!seenSince, (qb) => qb.where('lastSeenAt', '>=', seenSince!))
    .orderBy('id')
    .execute()
}

/** The tenant's daily CPU of virtual machines over [from, to], by resource key then day. */
export async function cpuDays(db: Kysely<Database>, tenantId: string, from: string, to: string) {
  return db
    .selectFrom('cpuMetrics')
    .select(['resourceKey', 'date', 'averagePercent', 'maxPercent', 'p95Percent'])
    .where('tenantId', '=', tenantId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('resourceKey')
    .orderBy('date')
    .execute()
}

/*
 * What the cost reads and the series rebuild need of the inventory, lent by its owner: costs imports nothing of the
 * inventory (which reads costs), and whoever builds the cost paths hands them these.
 */

/**
 * The value of tag `tagKey` (compared ignoring case, as Azure does) of each resource of the tenant that has it: a
 * subquery of (resource_key, tag_value) rows that a chart grouped by tag joins. A resource that has the key in two
 * spellings counts under the smaller value.
 */
export function taggedResources(dialect: DialectName, tenantId: string, tagKey: string): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`(select r.arm_id_lower as resource_key, min(j.value) as tag_value
        from resources r cross join lateral jsonb_each_text(r.tags::jsonb) j
        where r.tenant_id = ${tenantId} and lower(j.key) = ${tagKey} group by r.arm_id_lower)`
    : sql`(select r.arm_id_lower as resource_key, min(j.value) as tag_value
        from resources r, json_each(r.tags) j
        where r.tenant_id = ${tenantId} and lower(j.key) = ${tagKey} group by r.arm_id_lower)`
}

/**
 * Every tag of the tenant's resources as (resource_key, tag_key, tag_value) rows, the key lower-cased (a resource
 * with a key in two spellings counts under the smaller value): the tags the tag series are summed by, compared by
 * the rebuild with those it summed last time. A statement's text over `trx`'s dialect.
 */
export function currentResourceTags(trx: Kysely<Database>, tenantId: string): RawBuilder<unknown> {
  const eachTag =
    trx.getExecutor().adapter instanceof SqliteAdapter ? sql`json_each(r.tags)` : sql`jsonb_each_text(r.tags::jsonb)`
  return sql`select r.arm_id_lower as resource_key, lower(j.key) as tag_key, min(j.value) as tag_value
    from resources r cross join ${eachTag} j where r.tenant_id = ${tenantId}
    group by r.arm_id_lower, lower(j.key)`
}

/** Tenants per statement: two parameters each. */
const TENANTS_PER_READ = 200

/**
 * The currency of one subscription of each tenant that has one (the one seen last, then by id): a tenant's billing
 * currency before it has any cost. One seek per tenant, in one statement.
 */
export async function subscriptionCurrencies(
  db: Kysely<Database>,
  tenantIds: readonly string[],
): Promise<Map<string, string>> {
  const currencies = new Map<string, string>()
  for (const part of chunk(tenantIds, TENANTS_PER_READ)) {
    const seeks = sql.join(
      part.map(
        (id) => sql`select ${id} as id, (
          select s.currency from subscriptions s where s.tenant_id = ${id}
          order by s.last_seen_at desc, s.subscription_id limit 1) as currency`,
      ),
      sql` union all `,
    )
    const { rows } = await sql<{ id: string; currency: string | null }>`${seeks}`.execute(db)
    for (const r of rows) if (r.currency !== null) currencies.set(r.id, r.currency)
  }
  return currencies
}

/** What the cost read path asks of the inventory (see InventoryForCosts in costs/read). */
export function inventoryForCosts(db: Kysely<Database>, dialect: DialectName) {
  return {
    subscriptionCurrencies: (tenantIds: string[]) => subscriptionCurrencies(db, tenantIds),
    taggedResources: (tenantId: string, tagKey: string) => taggedResources(dialect, tenantId, tagKey),
  }
}

/** What a report shows of a resource beside its costs. */
export interface ResourceFacts {
  name: string
  resourceType: string
  resourceGroupName: string
  tags: Record<string, string>
}

/**
 * The facts (name, type, group, tags) of the tenant's resources whose keys (lower-cased ARM ids) fall in
 * [firstKey, lastKey]: one range of the key, read beside each batch of a report's costs (which come in key order).
 */
export async function resourceFactsBetween(
  db: Kysely<Database>,
  tenantId: string,
  firstKey: string,
  lastKey: string,
): Promise<Map<string, ResourceFacts>> {
  const facts = new Map<string, ResourceFacts>()
  const inventory = await db
    .selectFrom('resources')
    .select(['armIdLower', 'name', 'resourceType', 'resourceGroupName', 'tags'])
    .where('tenantId', '=', tenantId)
    .where('armIdLower', '>=', firstKey)
    .where('armIdLower', '<=', lastKey)
    .execute()
  for (const r of inventory)
    facts.set(r.armIdLower, {
      name: r.name,
      resourceType: r.resourceType,
      // A report's cell: empty for a resource of a cloud without resource groups (AWS, Google Cloud).
      resourceGroupName: r.resourceGroupName ?? '',
      tags: JSON.parse(r.tags) as Record<string, string>,
    })
  return facts
}

/** The names of resources by id, in one query per 500 ids; unknown ids are left out. */
export async function resourceNamesById(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  for (const part of chunk([...new Set(ids)], 500)) {
    const rows = await db.selectFrom('resources').select(['id', 'name']).where('id', 'in', part).execute()
    for (const r of rows) names.set(r.id, r.name)
  }
  return names
}
