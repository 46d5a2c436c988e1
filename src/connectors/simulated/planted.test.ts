import { describe, expect, it } from 'vitest'
import { collectionWindow } from '../../features/snapshots/window.js'
import { fixedClock } from '../../platform/clock.js'
import { addDays } from '../../platform/time.js'
import type { TenantConnection } from '../types.js'
import { INSIGHT_RESOURCES, PLANTED_CHANGES, simulatedEstate } from './estate.js'
import { createSimulatedConnector, simulatedDailyCost } from './index.js'

const CLOUD_TENANT = 'contoso.onmicrosoft.com'
const TODAY = '2026-06-15'
const conn: TenantConnection = {
  tenantId: '01a211c7-9cf8-7395-9881-f96b76ebb77a',
  cloudTenantId: CLOUD_TENANT,
  credentialType: 'ManagedIdentity',
  clientId: null,
  clientSecret: null,
  certificateThumbprint: null,
}

/** Each resource's cost per day of the window, as the connector delivers it on `today`. */
async function costsOn(today: string, plantedChanges: boolean, from: string, to: string) {
  const costs = new Map<string, number>()
  const connector = createSimulatedConnector({ plantedChanges })
  for await (const batch of connector.dailyCosts(conn, { from, to }, { clock: fixedClock(`${today}T09:00:00Z`) }))
    for (const row of batch) {
      if (!row.resourceArmId) continue
      const key = `${row.resourceArmId}@${row.date}`
      costs.set(key, (costs.get(key) ?? 0) + row.cost)
    }
  return costs
}

describe('the cost changes the simulated estate plants for the demo', () => {
  const estate = simulatedEstate(CLOUD_TENANT)
  const changed = (name: string) => estate.resources.filter((r) => r.change === name)
  const groupsOf = (name: string) => new Set(changed(name).map((r) => `${r.subscriptionId}/${r.resourceGroupName}`))

  it('falls on one resource and two whole groups, never on a resource that plants an insight', () => {
    expect(changed('spike')).toHaveLength(1)
    expect(groupsOf('outage').size).toBe(1)
    expect(groupsOf('levelShift').size).toBe(1)
    expect([...groupsOf('outage')]).not.toEqual([...groupsOf('levelShift')])
    expect(groupsOf('levelShift').has([...groupsOf('spike')][0]!)).toBe(false)
    expect(estate.resources.slice(0, INSIGHT_RESOURCES).every((r) => r.change === null)).toBe(true)
    expect(simulatedEstate(CLOUD_TENANT).resources.map((r) => r.change)).toEqual(estate.resources.map((r) => r.change))
  })

  it('multiplies their costs on the days counted back from the day of collection, and only when asked', async () => {
    const from = addDays(TODAY, -60)
    const [planted, plain] = await Promise.all([costsOn(TODAY, true, from, TODAY), costsOn(TODAY, false, from, TODAY)])
    const ratio = (name: string, daysAgo: number) => {
      const r = changed(name)[0]!
      const key = `${r.armId}@${addDays(TODAY, -daysAgo)}`
      return planted.get(key)! / plain.get(key)!
    }
    const { spike, outage, levelShift } = PLANTED_CHANGES
    const near = (values: number[]) => values.map((v) => expect.closeTo(v, 3))
    expect([10, 9, 8].map((d) => ratio('spike', d))).toEqual(near([1, spike.factor, 1]))
    expect([31, 30, 29, 28].map((d) => ratio('outage', d))).toEqual(near([1, outage.factor, outage.factor, 1]))
    expect([56, 55, 20, 0].map((d) => ratio('levelShift', d))).toEqual(
      near([1, levelShift.factor, levelShift.factor, levelShift.factor]),
    )
    // Without them, a day's cost never depends on the day it is collected.
    const later = await costsOn(addDays(TODAY, 20), false, from, TODAY)
    expect(later).toEqual(plain)
    const r = changed('spike')[0]!
    const day = addDays(TODAY, -9)
    expect(plain.get(`${r.armId}@${day}`)).toBeCloseTo(simulatedDailyCost(r, day), 4)
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
