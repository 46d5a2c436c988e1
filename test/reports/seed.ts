import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Db } from '../../src/platform/db/index.js'
import { addDays } from '../../src/platform/time.js'
import { insertCostRows, type StoredCostRow } from '../support/cost-rows.js'

/**
 * The settings of a test app that renders reports: no rate limit in the way, no daily snapshot mixing simulated
 * costs into the seeded ones, and a blob folder of its own; `extra` on top.
 */
export function reportTestEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    COSTWATCH_RATE_LIMIT: '100000',
    COSTWATCH_SNAPSHOT_HOUR: '23',
    COSTWATCH_BLOB_URL: mkdtempSync(join(tmpdir(), 'costwatch-blobs-')),
    ...extra,
  }
}

export interface SeedResource {
  name: string
  type?: string
  group?: string
  subscriptionId?: string
  service?: string
  tags?: Record<string, string>
  /** Cost on each of the `days` days. */
  daily: number
  currency?: string
}

/**
 * Inventory and daily costs written straight into a tenant's tables, as a snapshot run leaves them: known
 * amounts, so a report's figures can be checked to the cent. `days` days ending on `last`.
 */
export async function seedCosts(
  db: Db,
  tenantId: string,
  resources: SeedResource[],
  options: { last: string; days: number; subscriptionCharge?: number },
): Promise<void> {
  const now = `${options.last}T00:00:00.000Z`
  // The subscriptions and groups the resources live in, once each.
  const groupIds = new Map<string, string>()
  for (const r of resources) {
    const subscriptionId = r.subscriptionId ?? 'sub-a'
    const group = r.group ?? 'rg-main'
    const armId = `/subscriptions/${subscriptionId}/resourceGroups/${group}`
    if (groupIds.has(armId)) continue
    await db.kysely
      .insertInto('subscriptions')
      .values({
        tenantId,
        subscriptionId,
        displayName: subscriptionId,
        state: 'Enabled',
        currency: r.currency ?? 'USD',
        firstSeenAt: now,
        lastSeenAt: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute()
    const existing = await db.kysely
      .selectFrom('resourceGroups')
      .select('id')
      .where('tenantId', '=', tenantId)
      .where('armId', '=', armId)
      .executeTakeFirst()
    const id = existing?.id ?? randomUUID()
    if (!existing)
      await db.kysely
        .insertInto('resourceGroups')
        .values({
          id,
          tenantId,
          subscriptionId,
          name: group,
          nameLower: group.toLowerCase(),
          armId,
          location: 'westeurope',
          firstSeenAt: now,
          lastSeenAt: now,
        })
        .execute()
    groupIds.set(armId, id)
  }
  const resourceRows = resources.map((r) => {
    const subscriptionId = r.subscriptionId ?? 'sub-a'
    const group = r.group ?? 'rg-main'
    const armId = `/subscriptions/${subscriptionId}/resourceGroups/${group}/providers/${r.type ?? 'Microsoft.Compute/virtualMachines'}/${r.name}`
    return {
      id: randomUUID(),
      tenantId,
      subscriptionId,
      resourceGroupId: groupIds.get(`/subscriptions/${subscriptionId}/resourceGroups/${group}`)!,
      resourceGroupName: group,
      armId,
      armIdLower: armId.toLowerCase(),
      name: r.name,
      resourceType: r.type ?? 'Microsoft.Compute/virtualMachines',
      location: 'westeurope',
      tags: JSON.stringify(r.tags ?? {}),
      sku: null,
      state: null,
      properties: '{}',
      firstSeenAt: now,
      lastSeenAt: now,
    }
  })
  for (let i = 0; i < resourceRows.length; i += 200)
    await db.kysely
      .insertInto('resources')
      .values(resourceRows.slice(i, i + 200))
      .execute()
  const costs: StoredCostRow[] = []
  for (let d = 0; d < options.days; d++) {
    const date = addDays(options.last, -d)
    for (const [i, r] of resources.entries())
      costs.push({
        tenantId,
        resourceKey: resourceRows[i]!.armIdLower,
        date,
        meterId: 'meter-1',
        subscriptionId: resourceRows[i]!.subscriptionId,
        resourceGroupKey: (r.group ?? 'rg-main').toLowerCase(),
        meterName: null,
        serviceName: r.service ?? 'Virtual Machines',
        cost: r.daily,
        currency: r.currency ?? 'USD',
      })
    if (options.subscriptionCharge)
      costs.push({
        tenantId,
        resourceKey: '',
        date,
        meterId: 'support',
        subscriptionId: 'sub-a',
        resourceGroupKey: '',
        meterName: null,
        serviceName: 'Support',
        cost: options.subscriptionCharge,
        currency: 'USD',
      })
  }
  await insertCostRows(db.kysely, costs)
}
