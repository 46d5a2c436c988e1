import { dayDiff, dayStart, daysBetween, toDay } from '../../platform/time.js'
import type { Connector, CpuSample, DailyCostRow, InventorySnapshot, TenantConnection } from '../types.js'
import {
  PLANTED_CHANGES,
  type PlantedChangeSet,
  prng,
  type SimulatedEstate,
  type SimulatedResource,
  seedOf,
  simulatedEstate,
  stableGuid,
  WEEKEND_FACTOR,
} from './estate.js'

const EPOCH = '2024-01-01' // growth is measured from here, so a date's cost never depends on "today"

/** Noise in [-1, 1) from (resource, date, meter) alone, so a re-collected day has exactly the same cost. */
function noise(...parts: string[]): number {
  return prng(seedOf(...parts))() * 2 - 1
}

/**
 * The cost of a resource on a day: its list price, a weekend dip for office-hours compute, slow growth,
 * a little noise, and for a few resources a burst of several times the usual cost every 37 days.
 */
export function simulatedDailyCost(resource: SimulatedResource, date: string): number {
  const dayNumber = dayDiff(EPOCH, date)
  const weekday = dayStart(date).getUTCDay()
  const seasonal = resource.seasonal && (weekday === 0 || weekday === 6) ? WEEKEND_FACTOR : 1
  const growth = 1 + Math.max(dayNumber, 0) * 0.0008
  const jitter = 1 + 0.05 * noise('cost', resource.armId, date)
  const burst = resource.spiky && ((dayNumber % 37) + 37) % 37 < 2 ? 4 : 1
  return resource.dailyCost * seasonal * growth * jitter * burst
}

/** The factor a planted change puts on a resource's cost on `date`, `today` being the day of collection. */
export function plantedFactor(
  resource: SimulatedResource,
  date: string,
  today: string,
  set: PlantedChangeSet = 'recent',
): number {
  if (!resource.change) return 1
  const change = PLANTED_CHANGES[set][resource.change]
  const day = change.daysAgo - dayDiff(date, today) // 0 on the change's first day
  return day >= 0 && (change.days === null || day < change.days) ? change.factor : 1
}

/** The monthly support plan every simulated tenant buys, and the sales tax charged on it. */
const SUPPORT_PLAN_COST = 100
const SALES_TAX_RATE = 0.08

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

export interface SimulatedOptions {
  /** Resources per estate; 240 by default (the benchmark asks for 20,000). */
  resourceCount?: number
  /** A pause before each day's costs, to show progress and behave like a remote provider. */
  latencyMs?: number
  /**
   * The changes planted before the day of collection (a spike, an outage, a level shift): every estate's recent
   * ones by default, so that a new tenant's deep history shows anomalies; the demo's in its longer history.
   */
  plantedChanges?: PlantedChangeSet
}

/**
 * A deterministic synthetic Azure-like estate derived from the tenant's cloudTenantId: demo, tests, benchmarks. A
 * day's cost depends on the day it is collected only through the planted changes, counted back from that day.
 */
export function createSimulatedConnector(options: SimulatedOptions = {}): Connector {
  const estates = new Map<string, SimulatedEstate>()
  const estateOf = (conn: TenantConnection) => {
    let estate = estates.get(conn.cloudTenantId)
    if (!estate) {
      estate = simulatedEstate(conn.cloudTenantId, options.resourceCount)
      estates.set(conn.cloudTenantId, estate)
    }
    return estate
  }
  return {
    name: 'simulated',
    async inventory(conn): Promise<InventorySnapshot> {
      const { subscriptions, resourceGroups, resources } = estateOf(conn)
      return {
        subscriptions,
        resourceGroups,
        resources: resources.map(
          ({
            dailyCost: _c,
            meters: _m,
            serviceName: _s,
            cpuAverage: _u,
            spiky: _p,
            seasonal: _e,
            change: _h,
            ...item
          }) => item,
        ),
      }
    },
    async *dailyCosts(conn, window, context): AsyncIterable<DailyCostRow[]> {
      const estate = estateOf(conn)
      const today = toDay(context.clock.now())
      const planted = options.plantedChanges ?? 'recent'
      const currency = estate.subscriptions[0]?.currency ?? 'USD'
      for (const date of daysBetween(window.from, window.to)) {
        if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs))
        const batch: DailyCostRow[] = []
        for (const resource of estate.resources) {
          const cost = simulatedDailyCost(resource, date) * plantedFactor(resource, date, today, planted)
          if (cost === 0) continue
          for (const meter of resource.meters) {
            batch.push({
              date,
              subscriptionId: resource.subscriptionId,
              resourceArmId: resource.armId,
              resourceGroupName: resource.resourceGroupName,
              meterId: meter.id,
              meterName: meter.name,
              chargeCategory: 'Usage',
              chargeClass: null,
              serviceName: resource.serviceName,
              cost: round(cost * meter.share),
              currency,
            })
          }
        }
        // A monthly support plan bought on the 1st, with no resource (it belongs to its subscription), and the
        // tax on it: purchases and taxes as a real bill has them, apart from usage in charts and detection.
        if (date.endsWith('-01')) {
          const sub = estate.subscriptions[0]!
          const subscriptionCharge = { date, subscriptionId: sub.subscriptionId, resourceArmId: null, currency }
          batch.push({
            ...subscriptionCharge,
            resourceGroupName: null,
            meterId: stableGuid('meter', 'support'),
            meterName: 'Standard Support',
            chargeCategory: 'Purchase',
            chargeClass: null,
            serviceName: 'Support',
            cost: SUPPORT_PLAN_COST,
          })
          batch.push({
            ...subscriptionCharge,
            resourceGroupName: null,
            meterId: stableGuid('meter', 'support', 'tax'),
            meterName: 'Sales tax on Standard Support',
            chargeCategory: 'Tax',
            chargeClass: null,
            serviceName: 'Support',
            cost: round(SUPPORT_PLAN_COST * SALES_TAX_RATE),
          })
        }
        yield batch
      }
    },
    async cpuMetrics(conn, vmArmIds, window): Promise<CpuSample[]> {
      const byId = new Map(estateOf(conn).resources.map((r) => [r.armId.toLowerCase(), r]))
      const samples: CpuSample[] = []
      for (const armId of vmArmIds) {
        const vm = byId.get(armId.toLowerCase())
        if (!vm || vm.cpuAverage === null || vm.state !== 'VM running') continue
        for (const date of daysBetween(window.from, window.to)) {
          const average = Math.max(0.1, vm.cpuAverage * (1 + 0.2 * noise('cpu', armId, date)))
          // A working day's shape: the busiest hours (p95) near twice the day's average, one peak above them.
          samples.push({
            resourceArmId: vm.armId,
            date,
            averagePercent: round(average),
            maxPercent: round(Math.min(100, average * 2.5)),
            p95Percent: round(Math.min(100, average * 1.8)),
          })
        }
      }
      return samples
    },
  }
}
