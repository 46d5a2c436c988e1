import { ConnectorError, type ResourceGroupItem, type ResourceItem } from '../types.js'
import type { ArmClient } from './http.js'
import { type Json, list, num, obj, page, parseArmId, str, tagsOf } from './json.js'

export const SUBSCRIPTIONS_API = '2022-12-01'
export const RESOURCE_GRAPH_API = '2024-04-01'

export interface ArmSubscription {
  subscriptionId: string
  displayName: string
  state: string
}

/** Every subscription the identity can see, following `nextLink`. */
export async function listSubscriptions(arm: ArmClient, signal?: AbortSignal): Promise<ArmSubscription[]> {
  const found: ArmSubscription[] = []
  let url: string | null = `${arm.origin}/subscriptions?api-version=${SUBSCRIPTIONS_API}`
  while (url) {
    const body = page(
      await arm.send({ method: 'GET', url, what: 'listing subscriptions' }, signal),
      'listing subscriptions',
    )
    for (const item of list(body.value).map(obj)) {
      const subscriptionId = str(item.subscriptionId)
      if (!subscriptionId) continue
      found.push({
        subscriptionId,
        displayName: str(item.displayName) ?? subscriptionId,
        state: str(item.state) ?? 'Enabled',
      })
    }
    url = str(body.nextLink)
  }
  return found
}

// `order by id` keeps the pages stable: Resource Graph pages by `$skipToken` only over a sorted result with ids.
// Whole `properties` are projected so that new insight rules need no new query; a VM's is a few kilobytes.
export const RESOURCES_QUERY =
  'resources | project id, name, type, location, subscriptionId, resourceGroup, tags, sku, kind, managedBy, properties | order by id asc'
export const RESOURCE_GROUPS_QUERY =
  "resourcecontainers | where type =~ 'microsoft.resources/subscriptions/resourcegroups' | project id, name, type, location, subscriptionId, tags | order by id asc"

const GRAPH_PAGE_SIZE = 1000 // the most Resource Graph returns per page
const GRAPH_SUBSCRIPTIONS_PER_QUERY = 1000 // Resource Graph's limit on the `subscriptions` list of one request

/** Runs one Resource Graph query over the subscriptions, page by page (`$skipToken` goes back inside `options`). */
export async function graphQuery(
  arm: ArmClient,
  subscriptionIds: string[],
  query: string,
  what: string,
  signal?: AbortSignal,
): Promise<Json[]> {
  const rows: Json[] = []
  const url = `${arm.origin}/providers/Microsoft.ResourceGraph/resources?api-version=${RESOURCE_GRAPH_API}`
  for (let i = 0; i < subscriptionIds.length; i += GRAPH_SUBSCRIPTIONS_PER_QUERY) {
    const subscriptions = subscriptionIds.slice(i, i + GRAPH_SUBSCRIPTIONS_PER_QUERY)
    let skipToken: string | null = null
    do {
      const options: Json = { $top: GRAPH_PAGE_SIZE, resultFormat: 'objectArray' }
      if (skipToken) options.$skipToken = skipToken
      const body = page(
        await arm.send({ method: 'POST', url, body: { subscriptions, query, options }, what }, signal),
        what,
      )
      rows.push(...list(body.data).map(obj))
      skipToken = str(body.$skipToken)
      if (!skipToken && String(body.resultTruncated) === 'true') {
        throw new ConnectorError('provider_error', `Azure truncated ${what} without a way to page on.`)
      }
    } while (skipToken)
  }
  return rows
}

export function toResourceGroup(row: Json): ResourceGroupItem | null {
  const armId = str(row.id)
  const name = str(row.name)
  const subscriptionId = str(row.subscriptionId) ?? (armId ? parseArmId(armId).subscriptionId : null)
  if (!armId || !name || !subscriptionId) return null
  return { subscriptionId, name, armId, location: str(row.location), tags: tagsOf(row.tags) }
}

export function toResource(row: Json): ResourceItem | null {
  const armId = str(row.id)
  const resourceType = str(row.type)?.toLowerCase()
  if (!armId || !resourceType) return null
  const ids = parseArmId(armId)
  const subscriptionId = str(row.subscriptionId) ?? ids.subscriptionId
  const resourceGroupName = ids.resourceGroupName ?? str(row.resourceGroup)
  if (!subscriptionId || !resourceGroupName) return null
  const shaped = shapeOf(resourceType, row)
  return {
    armId,
    name: str(row.name) ?? armId.split('/').pop() ?? armId,
    resourceType,
    location: str(row.location),
    subscriptionId,
    resourceGroupName,
    tags: tagsOf(row.tags),
    sku: shaped.sku,
    state: shaped.state,
    properties: shaped.properties,
  }
}

interface Shaped {
  sku: string | null
  state: string | null
  properties: Record<string, unknown>
}

/** The few facts per type that the insight rules read (idle VMs, unattached disks and IPs, empty plans, licences). */
function shapeOf(resourceType: string, row: Json): Shaped {
  const p = obj(row.properties)
  const sku = obj(row.sku)
  const skuName = str(sku.name)
  const skuTier = str(sku.tier)
  switch (resourceType) {
    case 'microsoft.compute/virtualmachines': {
      const vmSize = str(obj(p.hardwareProfile).vmSize)
      const powerState = powerStateOf(p)
      return {
        sku: vmSize,
        state: powerState,
        properties: {
          vmSize,
          licenseType: str(p.licenseType),
          osType: str(obj(obj(p.storageProfile).osDisk).osType),
          powerState,
        },
      }
    }
    case 'microsoft.compute/disks': {
      const diskState = str(p.diskState)
      return {
        sku: skuName,
        state: diskState,
        properties: {
          diskState,
          diskSizeGB: num(p.diskSizeGB),
          skuName,
          skuTier,
          managedBy: str(row.managedBy),
        },
      }
    }
    case 'microsoft.network/publicipaddresses': {
      // An address serves something only through an ipConfiguration (NIC, load balancer, gateway) or a NAT gateway.
      const ipConfigurationId = str(obj(p.ipConfiguration).id)
      const natGatewayId = str(obj(p.natGateway).id)
      const attached = Boolean(ipConfigurationId || natGatewayId)
      return {
        sku: skuName,
        state: attached ? 'Attached' : 'Unattached',
        properties: {
          attached,
          ipConfigurationId,
          natGatewayId,
          ipAddress: str(p.ipAddress),
          allocationMethod: str(p.publicIPAllocationMethod),
          skuName,
          skuTier,
        },
      }
    }
    case 'microsoft.web/serverfarms':
      return {
        sku: skuName,
        state: str(p.status),
        properties: {
          skuName,
          skuTier,
          capacity: num(sku.capacity),
          numberOfSites: num(p.numberOfSites),
          kind: str(row.kind),
        },
      }
    default:
      return { sku: skuName, state: str(p.provisioningState), properties: { skuName, skuTier, kind: str(row.kind) } }
  }
}

/**
 * Resource Graph puts a VM's power state in `properties.extended.instanceView.powerState`: `displayStatus` is the
 * portal's wording (`VM running`, `VM deallocated`); `code` (`PowerState/deallocated`) is the fallback.
 */
function powerStateOf(p: Json): string | null {
  const powerState = obj(obj(obj(p.extended).instanceView).powerState)
  const display = str(powerState.displayStatus)
  if (display) return display
  const code = str(powerState.code)
  return code ? `VM ${code.replace(/^PowerState\//i, '')}` : null
}
