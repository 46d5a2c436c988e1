import { createHash } from 'node:crypto'
import { DAY_MS, dayStart, toInstant } from '../../platform/time.js'
import type { ResourceGroupItem, ResourceItem, SubscriptionItem } from '../types.js'

/** A deterministic pseudo-random stream (mulberry32): the same seed gives the same estate on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function seedOf(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0)
}

/** A GUID-shaped id derived from its parts, stable across runs. */
export function stableGuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** How a simulated resource costs and behaves; the insight rules' conditions are planted through `flags`. */
export interface SimulatedResource extends ResourceItem {
  dailyCost: number
  meters: { id: string; name: string; share: number }[]
  serviceName: string
  /** Average CPU for VMs (idle VMs sit near 2%). */
  cpuAverage: number | null
  /** Costs on some dates jump several-fold (an injected anomaly). */
  spiky: boolean
  /** Weekend dip of compute that follows office hours. */
  seasonal: boolean
  /** The planted cost change this resource carries (see PLANTED_CHANGES), dated from the day of collection. */
  change: PlantedChangeName | null
}

/** A planted change: from `daysAgo` days before the day of collection, for `days` days (null: for good). */
export interface PlantedChange {
  daysAgo: number
  days: number | null
  factor: number
}

/**
 * The cost changes every simulated estate plants, dated from the day its costs are collected so that a new tenant's
 * 30-day deep history holds them where detection judges (from its 15th day): an outage of a group's workload 13 and
 * 12 days ago (its costs fall to a tenth), one resource's spike 9 days ago, and another group whose costs rise for
 * good 6 days ago (three days confirm the new level). The shift comes last: the first two weeks, which have no
 * baseline of their own, are each compared with the same weekday in the weeks after them, which must mostly be at
 * the old level. Every change is at least 4 days old, before the newest days a source may still restate (not
 * judged).
 */
export const RECENT_CHANGES = {
  spike: { daysAgo: 9, days: 1, factor: 6 },
  outage: { daysAgo: 13, days: 2, factor: 0.1 },
  levelShift: { daysAgo: 6, days: null, factor: 2 },
} as const satisfies Record<string, PlantedChange>

/**
 * The demo's own changes, in its longer history (`serve --demo` collects 120 days): the spike 9 days ago, the
 * outage 30 days ago and the level shift, after a deploy, 55 days ago.
 */
export const DEMO_CHANGES = {
  spike: { daysAgo: 9, days: 1, factor: 6 },
  outage: { daysAgo: 30, days: 2, factor: 0.1 },
  levelShift: { daysAgo: 55, days: null, factor: 1.8 },
} as const satisfies Record<string, PlantedChange>

export const PLANTED_CHANGES = { recent: RECENT_CHANGES, demo: DEMO_CHANGES } as const
/** Which changes a simulated connector plants: every estate's recent ones, or the demo's. */
export type PlantedChangeSet = keyof typeof PLANTED_CHANGES
export type PlantedChangeName = keyof typeof RECENT_CHANGES

/** What office-hours compute costs at weekends, in proportion to a weekday. */
export const WEEKEND_FACTOR = 0.65

export interface SimulatedEstate {
  subscriptions: SubscriptionItem[]
  resourceGroups: ResourceGroupItem[]
  resources: SimulatedResource[]
}

interface Kind {
  type: string
  serviceName: string
  skus: { sku: string; daily: number }[]
  weight: number
  meters: string[]
  seasonal?: boolean
  location?: string
}

// The kinds of resource the estate holds, with a realistic spread of daily list prices (USD).
const KINDS: Kind[] = [
  {
    type: 'Microsoft.Compute/virtualMachines',
    serviceName: 'Virtual Machines',
    weight: 18,
    meters: ['Compute Hours'],
    seasonal: true,
    skus: [
      { sku: 'Standard_B2s', daily: 1.0 },
      { sku: 'Standard_D4s_v5', daily: 4.6 },
      { sku: 'Standard_E8s_v5', daily: 12.1 },
      { sku: 'Standard_D16s_v5', daily: 18.4 },
    ],
  },
  {
    type: 'Microsoft.Compute/disks',
    serviceName: 'Storage',
    weight: 16,
    meters: ['P10 LRS Disk', 'Disk Operations'],
    skus: [
      { sku: 'Premium_LRS', daily: 0.65 },
      { sku: 'StandardSSD_LRS', daily: 0.32 },
      { sku: 'Standard_LRS', daily: 0.16 },
    ],
  },
  {
    type: 'Microsoft.Network/publicIPAddresses',
    serviceName: 'Virtual Network',
    weight: 8,
    meters: ['Static Public IP'],
    skus: [{ sku: 'Standard', daily: 0.12 }],
  },
  {
    type: 'Microsoft.Network/networkInterfaces',
    serviceName: 'Virtual Network',
    weight: 6,
    meters: ['Data Transfer'],
    skus: [{ sku: 'Standard', daily: 0.02 }],
  },
  {
    type: 'Microsoft.Web/serverFarms',
    serviceName: 'Azure App Service',
    weight: 6,
    meters: ['P1 v3 App Service Hours'],
    skus: [
      { sku: 'P1v3', daily: 4.8 },
      { sku: 'S1', daily: 2.4 },
      { sku: 'B1', daily: 0.43 },
    ],
  },
  {
    type: 'Microsoft.Web/sites',
    serviceName: 'Azure App Service',
    weight: 8,
    meters: ['Outbound Data'],
    skus: [{ sku: 'app', daily: 0.05 }],
  },
  {
    type: 'Microsoft.Sql/servers/databases',
    serviceName: 'SQL Database',
    weight: 8,
    meters: ['vCore', 'Data Stored'],
    skus: [
      { sku: 'GP_Gen5_2', daily: 12.2 },
      { sku: 'S0', daily: 0.5 },
      { sku: 'BC_Gen5_4', daily: 48.8 },
    ],
  },
  {
    type: 'Microsoft.Storage/storageAccounts',
    serviceName: 'Storage',
    weight: 10,
    meters: ['Hot LRS Data Stored', 'Write Operations'],
    skus: [
      { sku: 'Standard_LRS', daily: 0.9 },
      { sku: 'Standard_GRS', daily: 2.1 },
    ],
  },
  {
    type: 'Microsoft.KeyVault/vaults',
    serviceName: 'Key Vault',
    weight: 4,
    meters: ['Operations'],
    skus: [{ sku: 'standard', daily: 0.03 }],
  },
  {
    type: 'Microsoft.ContainerService/managedClusters',
    serviceName: 'Azure Kubernetes Service',
    weight: 3,
    meters: ['Uptime SLA'],
    seasonal: true,
    skus: [{ sku: 'Standard', daily: 2.4 }],
  },
  {
    type: 'Microsoft.DocumentDB/databaseAccounts',
    serviceName: 'Azure Cosmos DB',
    weight: 3,
    meters: ['100 RU/s', 'Data Stored'],
    skus: [{ sku: 'Standard', daily: 5.8 }],
  },
  {
    type: 'Microsoft.Network/loadBalancers',
    serviceName: 'Load Balancer',
    weight: 3,
    meters: ['Standard Rules'],
    skus: [{ sku: 'Standard', daily: 0.6 }],
  },
  {
    type: 'Microsoft.Compute/snapshots',
    serviceName: 'Storage',
    weight: 4,
    meters: ['Snapshot LRS'],
    skus: [{ sku: 'Standard_LRS', daily: 0.08 }],
  },
  {
    type: 'Microsoft.Cache/Redis',
    serviceName: 'Redis Cache',
    weight: 3,
    meters: ['C1 Cache Instance'],
    skus: [{ sku: 'Standard_C1', daily: 2.7 }],
  },
]

/**
 * The first resources of every estate, each planting a condition an insight rule finds (or a healthy one of its
 * kind), so that the demo shows every category after its first snapshot and analysis. Entries override what the
 * random draw chose for that position; the rest of the estate is random.
 */
interface Planted {
  type: string
  sku?: string
  state?: string
  environment?: string
  /** Costs the same at weekends (24x7), unlike office-hours compute. */
  steady?: boolean
  cpuAverage?: number
  tags?: Record<string, string>
  properties?: Record<string, unknown>
}

const VM = 'Microsoft.Compute/virtualMachines'
const LINUX = { osType: 'Linux', licenseType: null }
const PLANTED: Planted[] = [
  // StoppedVm: stopped from inside the guest, still billed.
  { type: VM, sku: 'Standard_D4s_v5', state: 'VM stopped', properties: LINUX },
  // OrphanedResource: an unattached disk, an unassociated public IP, an App Service plan with no app.
  { type: 'Microsoft.Compute/disks', sku: 'Premium_LRS', state: 'Unattached', properties: { diskState: 'Unattached' } },
  { type: 'Microsoft.Network/publicIPAddresses', properties: { ipConfiguration: null } },
  { type: 'Microsoft.Network/networkInterfaces' },
  { type: 'Microsoft.Web/serverFarms', sku: 'P1v3', properties: { numberOfSites: 0 } },
  { type: 'Microsoft.Web/sites' },
  // HybridBenefitOpportunity: a vCore database with its SQL Server licence included.
  { type: 'Microsoft.Sql/servers/databases', sku: 'GP_Gen5_2', properties: { licenseType: 'LicenseIncluded' } },
  // UnusedResource: a storage account holding nothing.
  { type: 'Microsoft.Storage/storageAccounts', sku: 'Standard_LRS', properties: { usedCapacityBytes: 0 } },
  { type: 'Microsoft.KeyVault/vaults' },
  { type: 'Microsoft.ContainerService/managedClusters' },
  { type: 'Microsoft.DocumentDB/databaseAccounts' },
  // UnusedResource: an idle load balancer (no backend, no bytes).
  { type: 'Microsoft.Network/loadBalancers', properties: { backendAddressPools: [], bytesProcessed: 0 } },
  // UnusedResource: a disk snapshot over 90 days old.
  { type: 'Microsoft.Compute/snapshots', properties: { ageDays: 200 } },
  { type: 'Microsoft.Cache/Redis' },
  // OverProvisioned: a large production VM idling at about 2% CPU.
  { type: VM, sku: 'Standard_D16s_v5', state: 'VM running', environment: 'prod', cpuAverage: 2, properties: LINUX },
  // ScheduleOpportunity: non-production VMs running nights and weekends.
  {
    type: VM,
    sku: 'Standard_D4s_v5',
    state: 'VM running',
    environment: 'dev',
    steady: true,
    cpuAverage: 35,
    properties: LINUX,
  },
  {
    type: VM,
    sku: 'Standard_E8s_v5',
    state: 'VM running',
    environment: 'test',
    steady: true,
    cpuAverage: 30,
    properties: LINUX,
  },
  // ReservedInstanceOpportunity: production VMs running steadily around the clock.
  {
    type: VM,
    sku: 'Standard_D4s_v5',
    state: 'VM running',
    environment: 'prod',
    steady: true,
    cpuAverage: 45,
    properties: LINUX,
  },
  {
    type: VM,
    sku: 'Standard_E8s_v5',
    state: 'VM running',
    environment: 'prod',
    steady: true,
    cpuAverage: 55,
    properties: LINUX,
  },
  // HybridBenefitOpportunity: Windows without Azure Hybrid Benefit.
  {
    type: VM,
    sku: 'Standard_D4s_v5',
    state: 'VM running',
    environment: 'prod',
    cpuAverage: 40,
    properties: { osType: 'Windows', licenseType: null },
  },
  // ExpiredResource: a storage account past the end of life its tag gives.
  {
    type: 'Microsoft.Storage/storageAccounts',
    sku: 'Standard_LRS',
    tags: { 'expiry-date': '2025-06-30' },
    properties: { usedCapacityBytes: 52_428_800 },
  },
]

/** How many resources open every estate to plant the insight rules' conditions. */
export const INSIGHT_RESOURCES = PLANTED.length

const SUBSCRIPTIONS = ['Production', 'Staging', 'Data Platform', 'Shared Services']
const WORKLOADS = ['web', 'api', 'data', 'ml', 'identity', 'monitoring', 'batch', 'payments']
const ENVIRONMENTS: Record<string, string> = {
  Production: 'prod',
  Staging: 'staging',
  'Data Platform': 'prod',
  'Shared Services': 'shared',
}
const LOCATIONS = ['westeurope', 'northeurope', 'eastus', 'uksouth']
const TEAMS = ['platform', 'checkout', 'search', 'insights']

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!
}

function pickKind(rand: () => number): Kind {
  const total = KINDS.reduce((s, k) => s + k.weight, 0)
  let r = rand() * total
  for (const kind of KINDS) {
    r -= kind.weight
    if (r < 0) return kind
  }
  return KINDS[0]!
}

function shortName(type: string): string {
  const last = type.split('/').pop()!.toLowerCase()
  const map: Record<string, string> = {
    virtualmachines: 'vm',
    disks: 'disk',
    publicipaddresses: 'pip',
    networkinterfaces: 'nic',
    serverfarms: 'plan',
    sites: 'app',
    databases: 'sqldb',
    storageaccounts: 'st',
    vaults: 'kv',
    managedclusters: 'aks',
    databaseaccounts: 'cosmos',
    loadbalancers: 'lb',
    snapshots: 'snap',
    redis: 'redis',
  }
  return map[last] ?? last
}

/**
 * The estate of a simulated tenant, derived from its cloud tenant id only: several subscriptions, tagged
 * resource groups, and `resourceCount` resources over fourteen types, with every insight condition planted.
 */
export function simulatedEstate(cloudTenantId: string, resourceCount = 240): SimulatedEstate {
  const rand = prng(seedOf('estate', cloudTenantId))
  const subscriptions: SubscriptionItem[] = SUBSCRIPTIONS.map((name) => ({
    subscriptionId: stableGuid('subscription', cloudTenantId, name),
    displayName: name,
    state: 'Enabled',
    currency: 'USD',
  }))
  const resourceGroups: ResourceGroupItem[] = []
  for (const sub of subscriptions) {
    const env = ENVIRONMENTS[sub.displayName]!
    const groupCount = 3 + Math.floor(rand() * 3)
    const workloads = [...WORKLOADS].sort(() => rand() - 0.5).slice(0, groupCount)
    for (const workload of workloads) {
      const name = `rg-${workload}-${env}`
      resourceGroups.push({
        subscriptionId: sub.subscriptionId,
        name,
        armId: `/subscriptions/${sub.subscriptionId}/resourceGroups/${name}`,
        location: pick(rand, LOCATIONS),
        tags: {
          environment: env,
          workload,
          team: pick(rand, TEAMS),
          costCenter: `CC-${1000 + Math.floor(rand() * 50)}`,
        },
      })
    }
  }

  const resources: SimulatedResource[] = []
  for (let i = 0; i < resourceCount; i++) {
    // The first resources are the planted cases, so every estate, however small, has each of them.
    const plant = PLANTED[i]
    const kind = plant ? KINDS.find((k) => k.type === plant.type)! : pickKind(rand)
    const group = resourceGroups[i % resourceGroups.length]!
    const drawn = pick(rand, kind.skus)
    const skuChoice = plant?.sku ? kind.skus.find((k) => k.sku === plant.sku)! : drawn
    const name = `${shortName(kind.type)}-${group.tags.workload}-${String(i).padStart(4, '0')}`
    const armId = `${group.armId}/providers/${kind.type}/${name}`
    const properties: Record<string, unknown> = {}
    let state: string | null = 'Succeeded'
    let cpuAverage: number | null = null
    let dailyCost = skuChoice.daily * (0.8 + rand() * 0.4)
    const tags: Record<string, string> = { ...group.tags }
    if (rand() < 0.3) tags.owner = `${pick(rand, TEAMS)}@example.com`
    if (rand() < 0.15) tags.Environment = group.tags.environment! // a second spelling of a key, as real estates have

    if (kind.type === 'Microsoft.Compute/virtualMachines') {
      const windows = rand() < 0.4 || i % 7 === 0
      properties.osType = windows ? 'Windows' : 'Linux'
      properties.vmSize = skuChoice.sku
      // Windows without Azure Hybrid Benefit in about half the cases.
      properties.licenseType = windows && rand() < 0.5 ? 'Windows_Server' : null
      const roll = rand()
      state = i % 11 === 0 || roll < 0.06 ? 'VM stopped' : roll < 0.12 ? 'VM deallocated' : 'VM running'
      cpuAverage = i % 9 === 0 || rand() < 0.12 ? 1 + rand() * 3 : 15 + rand() * 50
      if (state === 'VM deallocated') dailyCost = 0
    } else if (kind.type === 'Microsoft.Compute/disks') {
      const unattached = i % 5 === 1 || rand() < 0.15
      properties.diskState = unattached ? 'Unattached' : 'Attached'
      properties.diskSizeGB = pick(rand, [32, 64, 128, 256, 512, 1024])
      state = unattached ? 'Unattached' : 'Attached'
    } else if (kind.type === 'Microsoft.Network/publicIPAddresses') {
      properties.ipConfiguration =
        i % 4 === 2 || rand() < 0.25
          ? null
          : { id: `${group.armId}/providers/Microsoft.Network/networkInterfaces/nic-${i}/ipConfigurations/ipconfig1` }
    } else if (kind.type === 'Microsoft.Web/serverFarms') {
      properties.numberOfSites = i % 6 === 4 || rand() < 0.2 ? 0 : 1 + Math.floor(rand() * 5)
    } else if (kind.type === 'Microsoft.Compute/snapshots') {
      properties.ageDays = i % 3 === 0 || rand() < 0.5 ? 120 + Math.floor(rand() * 400) : Math.floor(rand() * 60)
    } else if (kind.type === 'Microsoft.Sql/servers/databases') {
      properties.averageDtuPercent = i % 8 === 6 || rand() < 0.2 ? 3 + rand() * 5 : 30 + rand() * 50
      // vCore databases (GP_, BC_) carry a licence; half of them still pay for SQL Server.
      if (/^(GP|BC)_/.test(skuChoice.sku)) properties.licenseType = rand() < 0.5 ? 'LicenseIncluded' : 'BasePrice'
    } else if (kind.type === 'Microsoft.Storage/storageAccounts') {
      properties.usedCapacityBytes = rand() < 0.1 ? 0 : Math.floor(1e6 + rand() * 5e11)
    } else if (kind.type === 'Microsoft.Network/loadBalancers') {
      const idle = rand() < 0.2
      properties.backendAddressPools = idle ? [] : [{ name: 'backend' }]
      properties.bytesProcessed = idle ? 0 : Math.floor(1e8 + rand() * 1e11)
    }

    let seasonal = !!kind.seasonal
    if (plant) {
      if (plant.state) state = plant.state
      if (plant.cpuAverage !== undefined) cpuAverage = plant.cpuAverage
      if (plant.steady) seasonal = false
      if (kind.type === VM) dailyCost = state === 'VM deallocated' ? 0 : skuChoice.daily
      Object.assign(properties, plant.properties)
      if (kind.type === VM) properties.vmSize = skuChoice.sku
      if (plant.environment) {
        delete tags.Environment
        tags.environment = plant.environment
      }
      Object.assign(tags, plant.tags)
    }
    if (kind.type === 'Microsoft.Compute/snapshots') {
      const ageDays = Number(properties.ageDays)
      properties.timeCreated = toInstant(dayStart('2026-01-01'), -ageDays * DAY_MS)
    }

    resources.push({
      armId,
      name,
      resourceType: kind.type,
      location: group.location,
      subscriptionId: group.subscriptionId,
      resourceGroupName: group.name,
      tags,
      sku: skuChoice.sku,
      state,
      properties,
      dailyCost,
      meters: kind.meters.map((meter, m) => ({
        id: stableGuid('meter', kind.type, skuChoice.sku, meter),
        name: meter,
        share: kind.meters.length === 1 ? 1 : m === 0 ? 0.8 : 0.2,
      })),
      serviceName: kind.serviceName,
      cpuAverage,
      spiky: i % 37 === 3,
      seasonal,
      change: null,
    })
  }
  plantChanges(resources.slice(INSIGHT_RESOURCES))
  return { subscriptions, resourceGroups, resources }
}

/** A resource's cost on its quietest days (office-hours compute dips at weekends), before growth and noise. */
export function weekendCost(r: Pick<SimulatedResource, 'dailyCost' | 'seasonal'>): number {
  return r.dailyCost * (r.seasonal ? WEEKEND_FACTOR : 1)
}

/**
 * Chooses where the planted changes fall, among the resources that plant no insight (their costs stay as the
 * insight rules expect) and have no bursts of their own: the two groups costing most that hold no bursting resource
 * (whose bursts would blur the change) have the level shift and the outage, and the costliest steady resource
 * outside them the spike, costs counted at their weekend level. Large enough to clear the minimum impact on any
 * day; the same for a tenant on every run.
 */
function plantChanges(candidates: SimulatedResource[]): void {
  const groupOf = (r: SimulatedResource) => `${r.subscriptionId}/${r.resourceGroupName}`
  const bursting = new Set(candidates.filter((r) => r.spiky).map(groupOf))
  const steady = candidates.filter((r) => !r.spiky && r.dailyCost > 0)
  const groupCost = new Map<string, number>()
  for (const r of steady) {
    const key = groupOf(r)
    if (!bursting.has(key)) groupCost.set(key, (groupCost.get(key) ?? 0) + weekendCost(r))
  }
  const [shifted, outage] = [...groupCost].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key)
  const spike = steady
    .filter((r) => ![shifted, outage].includes(groupOf(r)))
    .sort((a, b) => weekendCost(b) - weekendCost(a) || (a.armId < b.armId ? -1 : 1))[0]
  for (const r of steady) {
    const key = groupOf(r)
    if (key === shifted) r.change = 'levelShift'
    else if (key === outage) r.change = 'outage'
  }
  if (spike) spike.change = 'spike'
}
