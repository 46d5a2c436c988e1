/**
 * A labelled synthetic estate for evaluating anomaly detection: resources with weekly seasonality and noise, and
 * planted spikes, drops (outages), level shifts and new resources (appear and stay), each labelled with its
 * resource and first day; plus decoys, small resources whose cost jumps a lot in percent but little in money, which
 * must not be flagged. Beside them, what must raise nothing: resources deleted mid-period (their rows stop) and a
 * partial newest day (part of the resources without rows, part with part of their cost). A clean estate plants
 * nothing but the decoys. Seeded: the same seed gives the same estate.
 */

export type PlantedKind = 'spike' | 'drop' | 'shift' | 'new' | 'removal' | 'decoy'

/** The kinds detection must find (a removal explains what its scopes show, but need not be raised). */
export const FOUND_KINDS = ['spike', 'drop', 'shift', 'new'] as const
/** The kinds that stay: their scopes must be quiet again soon after. */
export const LASTING_KINDS: readonly PlantedKind[] = ['shift', 'new', 'removal']

export interface Resource {
  subscriptionId: string
  group: string
  name: string
  armId: string
  service: string
  resourceType: string
  meterId: string
  tags: Record<string, string>
  /** Daily cost, one per day of the estate. */
  costs: number[]
  /** The first and last day with rows (by position): before and after them the resource has none. */
  rowsFrom?: number
  rowsThrough?: number
}

export interface Label {
  kind: PlantedKind
  armId: string
  start: string
  /** The change of the resource's cost on the first day (after minus before). */
  change?: number
}

export interface EstateOptions {
  days?: number
  /** Plant nothing but decoys. */
  clean?: boolean
  /** Resources deleted mid-period (rows stop) and new resources that appear and stay. */
  lifecycle?: boolean
  /** The newest day holds only part of the rows and part of the cost. */
  partialNewestDay?: boolean
}

export interface Estate {
  days: string[]
  resources: Resource[]
  /** Planted anomalies (spikes, drops, shifts): what detection should find. */
  labels: Label[]
  /** Planted decoys: what detection must not find. */
  decoys: Label[]
}

/** mulberry32: a small, well-mixed 32-bit generator. */
export function seeded(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const between = (lo: number, hi: number) => lo + (hi - lo) * next()
  const int = (lo: number, hi: number) => Math.floor(between(lo, hi + 1))
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!
  return { next, between, int, normal, pick }
}

const SERVICES = [
  { service: 'Virtual Machines', type: 'microsoft.compute/virtualmachines', display: 'Virtual machine' },
  { service: 'Storage', type: 'microsoft.storage/storageaccounts', display: 'Storage account' },
  { service: 'SQL Database', type: 'microsoft.sql/servers', display: 'SQL server' },
  { service: 'Azure App Service', type: 'microsoft.web/serverfarms', display: 'App Service plan' },
  { service: 'Azure Cosmos DB', type: 'microsoft.documentdb/databaseaccounts', display: 'Azure Cosmos DB account' },
] as const

export const ESTATE_START = '2026-01-01'
const DAY_MS = 86_400_000

function dayList(start: string, n: number): string[] {
  const t0 = Date.parse(`${start}T00:00:00Z`)
  return Array.from({ length: n }, (_, i) => new Date(t0 + i * DAY_MS).toISOString().slice(0, 10))
}

function hexId(rand: () => number): string {
  const hex = () => Math.floor(rand() * 16).toString(16)
  const part = (n: number) => Array.from({ length: n }, hex).join('')
  return `${part(8)}-${part(4)}-4${part(3)}-8${part(3)}-${part(12)}`
}

export function generateEstate(seed: number, options: EstateOptions = {}): Estate {
  const r = seeded(seed)
  const days = dayList(ESTATE_START, options.days ?? 150)
  const n = days.length
  const resources: Resource[] = []
  const labels: Label[] = []
  const decoys: Label[] = []
  const subscriptions = Array.from({ length: r.int(2, 3) }, () => hexId(r.next))

  const groups: { subscriptionId: string; group: string }[] = []
  const makeResource = (subscriptionId: string, group: string, k: number, big = false): Resource => {
    const kind = r.pick(SERVICES)
    const small = !big && r.next() < 0.25
    const level = small ? r.between(0.3, 2) : Math.exp(r.between(Math.log(40), Math.log(600)))
    const weekend = r.between(0.55, 1)
    const noise = r.between(0.02, 0.06)
    const trend = r.between(-0.0008, 0.0015)
    const name = `${kind.type.split('/')[1]!.slice(0, 4)}-${group}-${k}`
    const costs = days.map((_, d) => {
      const dow = (d + 4) % 7 // 2026-01-01 is a Thursday: 0 is Sunday
      const season = dow === 0 || dow === 6 ? weekend : 1
      return Math.max(0, level * season * (1 + trend * d) * (1 + noise * r.normal()))
    })
    return {
      subscriptionId,
      group,
      name,
      armId: `/subscriptions/${subscriptionId}/resourcegroups/${group}/providers/${kind.type}/${name}`,
      service: kind.service,
      resourceType: kind.display,
      meterId: hexId(r.next),
      tags: { env: group.split('-')[1]!, team: r.pick(['alpha', 'beta', 'gamma']) },
      costs,
    }
  }
  for (const subscriptionId of subscriptions) {
    for (let g = 0; g < r.int(2, 4); g++) {
      const group = `${r.pick(['web', 'data', 'batch', 'api', 'ml'])}-${r.pick(['prod', 'test', 'dev'])}-${g}`
      groups.push({ subscriptionId, group })
      const count = r.int(4, 8)
      for (let k = 0; k < count; k++) resources.push(makeResource(subscriptionId, group, k))
    }
  }

  // At most one planted change per resource, after 5 weeks of history and with a week left to see it.
  const earliest = 35
  const latest = n - 8
  const existing = [...resources]
  for (const res of existing) {
    const level = res.costs.slice(0, 28).reduce((a, b) => a + b, 0) / 28
    const start = r.int(earliest, latest)
    const roll = r.next()
    if (options.clean && level >= 5) continue
    if (level < 5) {
      // A decoy: a jump of 4 to 10 times the cost of a resource that costs little: large percent, tiny money.
      if (roll < 0.6) {
        const factor = r.between(4, 10)
        const length = r.int(1, 3)
        for (let d = start; d < Math.min(n, start + length); d++) res.costs[d]! *= factor
        decoys.push({ kind: 'decoy', armId: res.armId, start: days[start]! })
      }
      continue
    }
    // Planted changes move at least 40 a day: above the default minimum impact (25), as a change worth a look is.
    const worthALook = (factor: number) => level * Math.abs(factor - 1) >= 40
    if (roll < 0.3) {
      const factor = r.between(1.8, 5)
      if (!worthALook(factor)) continue
      const length = r.int(1, 3)
      for (let d = start; d < Math.min(n, start + length); d++) res.costs[d]! *= factor
      labels.push({
        kind: 'spike',
        armId: res.armId,
        start: days[start]!,
        change: res.costs[start]! * (1 - 1 / factor),
      })
    } else if (roll < 0.45) {
      const factor = r.between(0, 0.35)
      if (!worthALook(factor)) continue
      const length = r.int(1, 6)
      for (let d = start; d < Math.min(n, start + length); d++) res.costs[d]! *= factor
      labels.push({ kind: 'drop', armId: res.armId, start: days[start]!, change: res.costs[start]! * (1 - 1 / factor) })
    } else if (roll < 0.6) {
      const factor = r.next() < 0.7 ? r.between(1.6, 2.6) : r.between(0.3, 0.6)
      if (!worthALook(factor)) continue
      for (let d = start; d < n; d++) res.costs[d]! *= factor
      labels.push({
        kind: 'shift',
        armId: res.armId,
        start: days[start]!,
        change: res.costs[start]! * (1 - 1 / factor),
      })
    } else if (roll < 0.68 && options.lifecycle && !options.clean) {
      // Deleted: its rows stop. A removal, not an outage.
      res.rowsThrough = start - 1
      for (let d = start; d < n; d++) res.costs[d] = 0
      labels.push({ kind: 'removal', armId: res.armId, start: days[start]!, change: -level })
    }
  }
  if (options.lifecycle && !options.clean) {
    // New resources that appear and stay, under a resource group of each subscription, a few at once in one.
    for (const [i, { subscriptionId, group }] of groups.entries()) {
      if (r.next() > 0.5) continue
      const start = r.int(earliest, latest)
      const res = makeResource(subscriptionId, group, 10 + i, true)
      res.rowsFrom = start
      for (let d = 0; d < start; d++) res.costs[d] = 0
      resources.push(res)
      labels.push({ kind: 'new', armId: res.armId, start: days[start]!, change: res.costs[start]! })
    }
  }
  if (options.partialNewestDay) {
    // The newest day as a source first delivers it: a third of the resources without rows, a third with part of
    // their cost.
    for (const res of resources) {
      const roll = r.next()
      if (roll < 1 / 3) res.rowsThrough = Math.min(res.rowsThrough ?? n - 1, n - 2)
      else if (roll < 2 / 3) res.costs[n - 1]! *= r.between(0.2, 0.8)
    }
  }
  return { days, resources, labels, decoys }
}

const FOCUS_COLUMNS = [
  'BilledCost',
  'BillingAccountId',
  'BillingCurrency',
  'ChargeCategory',
  'ChargeDescription',
  'ChargePeriodEnd',
  'ChargePeriodStart',
  'EffectiveCost',
  'ProviderName',
  'RegionId',
  'RegionName',
  'ResourceId',
  'ResourceName',
  'ResourceType',
  'ServiceName',
  'SkuId',
  'SkuPriceId',
  'SubAccountId',
  'SubAccountName',
  'Tags',
  'x_EffectiveCostInUsd',
  'x_PricingCurrency',
  'x_ResourceGroupName',
  'x_ResourceType',
  'x_SkuMeterId',
  'x_SkuMeterName',
] as const

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

/** The estate as FOCUS 1.0 CSV (the columns of an Azure cost export), one file per month of ChargePeriodStart. */
export function focusFiles(estate: Estate, currency = 'EUR'): Map<string, string> {
  const files = new Map<string, string[]>()
  estate.days.forEach((day, d) => {
    const month = day.slice(0, 7)
    const lines = files.get(month) ?? [FOCUS_COLUMNS.join(',')]
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    for (const res of estate.resources) {
      if (d < (res.rowsFrom ?? 0) || d > (res.rowsThrough ?? estate.days.length - 1)) continue
      const cost = res.costs[d]!.toFixed(6)
      const row: Record<(typeof FOCUS_COLUMNS)[number], string> = {
        BilledCost: cost,
        BillingAccountId: '/providers/Microsoft.Billing/billingAccounts/eval',
        BillingCurrency: currency,
        ChargeCategory: 'Usage',
        ChargeDescription: `${res.service} usage`,
        ChargePeriodEnd: `${next}T00:00:00Z`,
        ChargePeriodStart: `${day}T00:00:00Z`,
        EffectiveCost: cost,
        ProviderName: 'Microsoft',
        RegionId: 'westeurope',
        RegionName: 'West Europe',
        ResourceId: res.armId,
        ResourceName: res.name,
        ResourceType: res.resourceType,
        ServiceName: res.service,
        SkuId: 'EVAL0001',
        SkuPriceId: `EVAL0001/${res.meterId.slice(0, 4)}`,
        SubAccountId: `/subscriptions/${res.subscriptionId}`,
        SubAccountName: `Subscription ${res.subscriptionId.slice(0, 8)}`,
        Tags: JSON.stringify(res.tags),
        x_EffectiveCostInUsd: cost,
        x_PricingCurrency: currency,
        x_ResourceGroupName: res.group,
        x_ResourceType: res.armId.split('/providers/')[1]!.split('/').slice(0, 2).join('/'),
        x_SkuMeterId: res.meterId,
        x_SkuMeterName: res.service,
      }
      lines.push(FOCUS_COLUMNS.map((c) => csvField(row[c])).join(','))
    }
    files.set(month, lines)
  })
  return new Map([...files].map(([month, lines]) => [month, `${lines.join('\n')}\n`]))
}
