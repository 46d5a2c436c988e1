import type { Kysely } from 'kysely'
import type { InventorySnapshot } from '../../connectors/types.js'
import type { Ids } from '../../platform/clock.js'
import type { Database } from '../../platform/db/index.js'

const BATCH = 200

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
    if (!groupIds.has(groupKey(r.subscriptionId, r.resourceGroupName))) {
      await upsertGroup({ subscriptionId: r.subscriptionId, name: r.resourceGroupName, location: r.location, tags: {} })
    }
  }

  const existingResources = new Map(
    (await trx.selectFrom('resources').select(['id', 'armIdLower']).where('tenantId', '=', tenantId).execute()).map(
      (r) => [r.armIdLower, r.id],
    ),
  )
  for (let i = 0; i < inventory.resources.length; i += BATCH) {
    const values = inventory.resources.slice(i, i + BATCH).map((r) => {
      const armIdLower = r.armId.toLowerCase()
      const group = groupIds.get(groupKey(r.subscriptionId, r.resourceGroupName))!
      return {
        id: existingResources.get(armIdLower) ?? ids.uuid(),
        tenantId,
        subscriptionId: r.subscriptionId.toLowerCase(),
        resourceGroupId: group.id,
        resourceGroupName: group.name,
        armId: r.armId,
        armIdLower,
        name: r.name,
        resourceType: r.resourceType,
        location: r.location,
        tags: JSON.stringify(r.tags),
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
          tags: eb.ref('excluded.tags'),
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
