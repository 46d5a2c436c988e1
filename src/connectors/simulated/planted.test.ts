import { describe, expect, it } from 'vitest'
import { DEFAULT_DETECTION } from '../../config.js'
import { collectionWindow } from '../../features/snapshots/window.js'
import { fixedClock } from '../../platform/clock.js'
import { addDays } from '../../platform/time.js'
import type { TenantConnection } from '../types.js'
import {
  DEMO_CHANGES,
  INSIGHT_RESOURCES,
  type PlantedChangeSet,
  RECENT_CHANGES,
  type SimulatedResource,
  simulatedEstate,
  weekendCost,
} from './estate.js'
import { createSimulatedConnector, simulatedDailyCost } from './index.js'

const CLOUD_TENANT = 'contoso.onmicrosoft.com'
const TODAY = '2026-06-15'
const connOf = (cloudTenantId: string): TenantConnection => ({
  tenantId: '01a211c7-9cf8-7395-9881-f96b76ebb77a',
  cloudTenantId,
  credentialType: 'ManagedIdentity',
  clientId: null,
  clientSecret: null,
  certificateThumbprint: null,
})

/** Each resource's cost per day of the window, as the connector delivers it on `today`. */
async function costsOn(today: string, plantedChanges: PlantedChangeSet | undefined, from: string, to: string) {
  const costs = new Map<string, number>()
  const connector = createSimulatedConnector(plantedChanges ? { plantedChanges } : {})
  const context = { clock: fixedClock(`${today}T09:00:00Z`) }
  for await (const batch of connector.dailyCosts(connOf(CLOUD_TENANT), { from, to }, context))
    for (const row of batch) {
      if (!row.resourceArmId) continue
      const key = `${row.resourceArmId}@${row.date}`
      costs.set(key, (costs.get(key) ?? 0) + row.cost)
    }
  return costs
}

const groupOf = (r: SimulatedResource) => `${r.subscriptionId}/${r.resourceGroupName}`

describe('the cost changes every simulated estate plants', () => {
  const estate = simulatedEstate(CLOUD_TENANT)
  const changed = (name: string) => estate.resources.filter((r) => r.change === name)
  const groupsOf = (name: string) => new Set(changed(name).map(groupOf))

  it('falls on one resource and two whole groups without bursts, never on a resource that plants an insight', () => {
    expect(changed('spike')).toHaveLength(1)
    expect(groupsOf('outage').size).toBe(1)
    expect(groupsOf('levelShift').size).toBe(1)
    expect([...groupsOf('outage')]).not.toEqual([...groupsOf('levelShift')])
    expect(groupsOf('levelShift').has([...groupsOf('spike')][0]!)).toBe(false)
    expect(estate.resources.slice(0, INSIGHT_RESOURCES).every((r) => r.change === null)).toBe(true)
    const bursting = new Set(estate.resources.filter((r) => r.spiky).map(groupOf))
    for (const name of ['outage', 'levelShift']) expect(bursting.has([...groupsOf(name)][0]!)).toBe(false)
    expect(simulatedEstate(CLOUD_TENANT).resources.map((r) => r.change)).toEqual(estate.resources.map((r) => r.change))
  })

  it('is large enough on every estate to clear the minimum impact even at weekends, and dated where a 30-day history is judged', () => {
    const clears = 1.2 * DEFAULT_DETECTION.minImpact
    for (let k = 0; k < 50; k++) {
      const { resources } = simulatedEstate(`tenant-${k}.example.com`)
      const cost = (name: string) =>
        resources.filter((r) => r.change === name).reduce((sum, r) => sum + weekendCost(r), 0)
      expect(cost('spike') * (RECENT_CHANGES.spike.factor - 1)).toBeGreaterThan(clears)
      expect(cost('outage') * (1 - RECENT_CHANGES.outage.factor)).toBeGreaterThan(clears)
      expect(cost('levelShift') * (RECENT_CHANGES.levelShift.factor - 1)).toBeGreaterThan(clears)
    }
    // A deep run collects the 30 days before today and today; judging starts on its 15th day.
    const judgedFrom = addDays(TODAY, -30 + DEFAULT_DETECTION.minHistoryDays)
    for (const change of Object.values(RECENT_CHANGES)) {
      expect(addDays(TODAY, -change.daysAgo) >= judgedFrom).toBe(true)
      // Over by the day before the newest three, which a source may still restate.
      const last = change.daysAgo - (change.days ?? DEFAULT_DETECTION.shiftConfirmDays) + 1
      expect(last).toBeGreaterThanOrEqual(4)
    }
    expect(RECENT_CHANGES.spike.daysAgo).toBeLessThanOrEqual(10)
  })

  it('multiplies their costs on the days counted back from the day of collection: recent ones by default', async () => {
    const from = addDays(TODAY, -60)
    const [planted, demo] = await Promise.all([
      costsOn(TODAY, undefined, from, TODAY),
      costsOn(TODAY, 'demo', from, TODAY),
    ])
    // A day before every change costs the same whenever it is collected: the reference the factors are read from.
    const plain = await costsOn(addDays(TODAY, 100), undefined, from, TODAY)
    const ratio = (costs: Map<string, number>, name: string, daysAgo: number) => {
      const r = changed(name)[0]!
      const key = `${r.armId}@${addDays(TODAY, -daysAgo)}`
      return costs.get(key)! / plain.get(key)!
    }
    const near = (values: number[]) => values.map((v) => expect.closeTo(v, 3))
    const { spike, outage, levelShift } = RECENT_CHANGES
    expect([10, 9, 8].map((d) => ratio(planted, 'spike', d))).toEqual(near([1, spike.factor, 1]))
    expect([14, 13, 12, 11].map((d) => ratio(planted, 'outage', d))).toEqual(near([1, outage.factor, outage.factor, 1]))
    expect([7, 6, 3, 0].map((d) => ratio(planted, 'levelShift', d))).toEqual(
      near([1, levelShift.factor, levelShift.factor, levelShift.factor]),
    )
    // The demo's, in its longer history.
    expect([10, 9, 8].map((d) => ratio(demo, 'spike', d))).toEqual(near([1, DEMO_CHANGES.spike.factor, 1]))
    expect([31, 30, 29, 28].map((d) => ratio(demo, 'outage', d))).toEqual(
      near([1, DEMO_CHANGES.outage.factor, DEMO_CHANGES.outage.factor, 1]),
    )
    expect([56, 55, 20, 0].map((d) => ratio(demo, 'levelShift', d))).toEqual(
      near([1, DEMO_CHANGES.levelShift.factor, DEMO_CHANGES.levelShift.factor, DEMO_CHANGES.levelShift.factor]),
    )
    // Outside the planted days, a day's cost never depends on the day it is collected.
    const early = addDays(TODAY, -20)
    for (const [key, cost] of planted) if (key.slice(-10) < early) expect(cost).toBe(plain.get(key))
    const r = changed('spike')[0]!
    expect(plain.get(`${r.armId}@${addDays(TODAY, -9)}`)).toBeCloseTo(simulatedDailyCost(r, addDays(TODAY, -9)), 4)
  })
})

describe('the collection window of a deep run queued with its own first day', () => {
  it('starts on that day; the usual runs keep their windows', () => {
    expect(collectionWindow(TODAY, true, null, addDays(TODAY, -120))).toEqual({ from: addDays(TODAY, -120), to: TODAY })
    expect(collectionWindow(TODAY, true, '2026-06-01', null)).toEqual({ from: addDays(TODAY, -30), to: TODAY })
    expect(collectionWindow(TODAY, false, '2026-06-10', addDays(TODAY, -120))).toEqual({
      from: '2026-06-10',
      to: TODAY,
    })
  })
})
