import { describe, expect, it } from 'vitest'
import { expiredResource } from './expired-resource.js'
import { hybridBenefitOpportunity } from './hybrid-benefit-opportunity.js'
import { findInsights } from './index.js'
import { severityOfSavings } from './money.js'
import { orphanedResource } from './orphaned-resource.js'
import { nextSizeDown, overProvisioned } from './over-provisioned.js'
import { reservedInstanceOpportunity } from './reserved-instance-opportunity.js'
import { scheduleOpportunity } from './schedule-opportunity.js'
import { stoppedVm } from './stopped-vm.js'
import type { ResourceFacts } from './types.js'
import { unusedResource } from './unused-resource.js'

const context = { today: '2026-03-01' }

function resource(over: Partial<ResourceFacts> = {}): ResourceFacts {
  return {
    resourceId: '00000000-0000-4000-a000-000000000001',
    armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1',
    name: 'vm-1',
    resourceType: 'Microsoft.Compute/virtualMachines',
    state: 'VM running',
    sku: 'Standard_D4s_v5',
    tags: {},
    properties: { vmSize: 'Standard_D4s_v5', osType: 'Linux' },
    subscriptionId: 's',
    resourceGroupName: 'rg',
    dailyCosts: Array(30).fill(4.6),
    firstWeekday: 1,
    currency: 'USD',
    cpu: [],
    ...over,
  }
}

const vm = (over: Partial<ResourceFacts> = {}) => resource(over)
/** A resource of `resourceType` with `properties`, costing `daily` on each of the last 30 days. */
const costing = (resourceType: string, properties: Record<string, unknown>, daily = 1, name = 'res-1') =>
  resource({ name, resourceType, properties, dailyCosts: Array(30).fill(daily) })
const cpuDays = (days: number, p95: number | null, max = 50) =>
  Array.from({ length: days }, (_, i) => ({
    date: `2026-02-${String(i + 1).padStart(2, '0')}`,
    averagePercent: 3,
    maxPercent: max,
    p95Percent: p95,
  }))
/** Costs of 28 days from a Monday: 5 weekdays at `weekday`, 2 weekend days at `weekend`. */
const week = (weekday: number, weekend: number) =>
  Array.from({ length: 28 }, (_, i) => ((1 + i) % 7 === 0 || (1 + i) % 7 === 6 ? weekend : weekday))

describe('OrphanedResource', () => {
  const disk = (diskState: string, cost = 0.65) =>
    resource({
      name: 'disk-1',
      resourceType: 'Microsoft.Compute/disks',
      state: diskState,
      properties: { diskState },
      dailyCosts: Array(30).fill(cost),
    })
  it('finds an unattached disk, saving all of its cost', () => {
    const found = orphanedResource(disk('Unattached'), context)
    expect(found?.category).toBe('OrphanedResource')
    expect(found?.estimatedMonthlySavings).toBe(19.5)
    expect(found?.severity).toBe('Low')
  })
  it('leaves an attached disk alone', () => {
    expect(orphanedResource(disk('Attached'), context)).toBeNull()
  })
  it('finds a public IP associated with nothing, not one in use', () => {
    const ip = (ipConfiguration: unknown) =>
      costing('microsoft.network/publicipaddresses', { ipConfiguration }, 0.12, 'pip-1')
    expect(orphanedResource(ip(null), context)?.estimatedMonthlySavings).toBe(3.6)
    expect(orphanedResource(ip({ id: '/x/ipConfigurations/ipconfig1' }), context)).toBeNull()
  })
  it('reads a public IP as the Azure connector keeps it: the ids of what it serves', () => {
    const ip = (properties: Record<string, unknown>) =>
      costing('Microsoft.Network/publicIPAddresses', properties, 0.12, 'pip-2')
    expect(
      orphanedResource(ip({ ipConfigurationId: null, natGatewayId: null }), context)?.estimatedMonthlySavings,
    ).toBe(3.6)
    expect(orphanedResource(ip({ ipConfigurationId: '/x/ipConfigurations/c', natGatewayId: null }), context)).toBeNull()
    expect(orphanedResource(ip({ ipConfigurationId: null, natGatewayId: '/x/natGateways/n' }), context)).toBeNull()
  })
  it('finds an App Service plan with no apps, not one with apps', () => {
    const plan = (numberOfSites: number) => costing('Microsoft.Web/serverFarms', { numberOfSites }, 4.8, 'plan-1')
    expect(orphanedResource(plan(0), context)?.estimatedMonthlySavings).toBe(144)
    expect(orphanedResource(plan(0), context)?.severity).toBe('Medium')
    expect(orphanedResource(plan(3), context)).toBeNull()
  })
})

describe('StoppedVm', () => {
  it('finds a VM stopped but not deallocated, saving its observed compute cost', () => {
    const found = stoppedVm(
      vm({ state: 'VM stopped', dailyCosts: [...Array(20).fill(12.1), ...Array(10).fill(12.4)] }),
      context,
    )
    expect(found?.category).toBe('StoppedVm')
    expect(found?.estimatedMonthlySavings).toBe(366)
    expect(found?.severity).toBe('High')
  })
  it('leaves running and deallocated VMs alone', () => {
    expect(stoppedVm(vm({ state: 'VM running' }), context)).toBeNull()
    expect(stoppedVm(vm({ state: 'VM deallocated', dailyCosts: Array(30).fill(0) }), context)).toBeNull()
  })
})

describe('OverProvisioned', () => {
  it('finds a VM whose CPU p95 stayed under 20% for 14 days, saving half with the next size down', () => {
    const found = overProvisioned(
      vm({
        properties: { vmSize: 'Standard_D16s_v5' },
        dailyCosts: Array(30).fill(18.4),
        cpu: cpuDays(14, 12),
      }),
      context,
    )
    expect(found?.category).toBe('OverProvisioned')
    expect(found?.estimatedMonthlySavings).toBe(276)
    expect(found?.recommendation).toContain('Standard_D8s_v5')
  })
  it('leaves a VM alone whose p95 is high, or with fewer than 14 days of CPU', () => {
    expect(overProvisioned(vm({ cpu: cpuDays(14, 45) }), context)).toBeNull()
    expect(overProvisioned(vm({ cpu: cpuDays(13, 5) }), context)).toBeNull()
  })
  it('bounds the window p95 by the busiest day: one day with a p95 of 20% or more keeps the VM', () => {
    const busyDay = [...cpuDays(13, 5), { date: '2026-02-14', averagePercent: 9, maxPercent: 60, p95Percent: 20 }]
    expect(overProvisioned(vm({ cpu: busyDay }), context)).toBeNull()
    const quietDays = [...cpuDays(13, 5), { date: '2026-02-14', averagePercent: 9, maxPercent: 60, p95Percent: 19.9 }]
    expect(overProvisioned(vm({ cpu: quietDays }), context)?.estimatedMonthlySavings).toBe(69)
  })
  it('counts a day without a p95 by its maximum', () => {
    expect(overProvisioned(vm({ cpu: cpuDays(14, null, 60) }), context)).toBeNull()
    expect(overProvisioned(vm({ cpu: cpuDays(14, null, 10) }), context)?.estimatedMonthlySavings).toBe(69)
  })
  it('knows the next size down, and when there is none', () => {
    expect(nextSizeDown('Standard_B2s')).toEqual({ size: 'Standard_B1s', ratio: 0.5 })
    expect(nextSizeDown('Standard_E8s_v5')).toEqual({ size: 'Standard_E4s_v5', ratio: 0.5 })
    expect(nextSizeDown('Standard_B1s')).toBeNull()
    expect(nextSizeDown('Basic_A3')).toBeNull()
  })
})

describe('ScheduleOpportunity', () => {
  const dev = { environment: 'Dev' }
  it('finds a non-production VM running nights and weekends, saving 108/168 of its cost', () => {
    const found = scheduleOpportunity(vm({ tags: dev, dailyCosts: week(4.6, 4.6) }), context)
    expect(found?.category).toBe('ScheduleOpportunity')
    expect(found?.estimatedMonthlySavings).toBe(88.71)
  })
  it('leaves alone a production VM, and a dev VM already off at weekends', () => {
    expect(scheduleOpportunity(vm({ tags: { environment: 'prod' }, dailyCosts: week(4.6, 4.6) }), context)).toBeNull()
    expect(scheduleOpportunity(vm({ tags: dev, dailyCosts: week(2.3, 0.01) }), context)).toBeNull()
  })
})

describe('ReservedInstanceOpportunity', () => {
  it('finds a production VM running steadily for 30 days, saving 40%', () => {
    const costs = Array.from({ length: 30 }, (_, i) => (i % 2 ? 12.0 : 12.2))
    const found = reservedInstanceOpportunity(vm({ tags: { environment: 'prod' }, dailyCosts: costs }), context)
    expect(found?.category).toBe('ReservedInstanceOpportunity')
    expect(found?.estimatedMonthlySavings).toBe(145.2)
  })
  it('leaves alone a VM with a weekly pattern, a short history, or a dev tag', () => {
    expect(reservedInstanceOpportunity(vm({ dailyCosts: [...week(4.6, 1), 4.6, 4.6] }), context)).toBeNull()
    expect(reservedInstanceOpportunity(vm({ dailyCosts: Array(20).fill(4.6) }), context)).toBeNull()
    expect(reservedInstanceOpportunity(vm({ tags: { env: 'test' } }), context)).toBeNull()
  })
})

describe('UnusedResource', () => {
  it('finds an empty storage account, an idle gateway and an old snapshot', () => {
    const storage = costing('Microsoft.Storage/storageAccounts', { usedCapacityBytes: 0 }, 0.9, 'st-1')
    expect(unusedResource(storage, context)?.estimatedMonthlySavings).toBe(27)
    const gateway = costing('Microsoft.Network/applicationGateways', { bytesProcessed: 0 }, 8.21, 'agw-1')
    expect(unusedResource(gateway, context)?.estimatedMonthlySavings).toBe(246.3)
    const balancer = costing('Microsoft.Network/loadBalancers', { backendAddressPools: [] }, 0.61, 'lb-1')
    expect(unusedResource(balancer, context)?.estimatedMonthlySavings).toBe(18.3)
    const snapshot = costing('Microsoft.Compute/snapshots', { timeCreated: '2025-10-01T00:00:00.000Z' }, 0.08, 'snap-1')
    expect(unusedResource(snapshot, context)?.description).toContain('151 days old')
    expect(unusedResource(snapshot, context)?.estimatedMonthlySavings).toBe(2.4)
  })
  it('leaves alone a storage account with data and a young snapshot', () => {
    const storage = resource({
      resourceType: 'Microsoft.Storage/storageAccounts',
      properties: { usedCapacityBytes: 10 },
    })
    expect(unusedResource(storage, context)).toBeNull()
    const balancer = costing('Microsoft.Network/loadBalancers', { bytesProcessed: 1200, backendAddressPools: [{}] })
    expect(unusedResource(balancer, context)).toBeNull()
    const snapshot = resource({
      resourceType: 'Microsoft.Compute/snapshots',
      properties: { timeCreated: '2026-02-01T00:00:00.000Z' },
    })
    expect(unusedResource(snapshot, context)).toBeNull()
  })
})

describe('HybridBenefitOpportunity', () => {
  it('finds a Windows VM without Hybrid Benefit, saving the licence share', () => {
    const found = hybridBenefitOpportunity(vm({ properties: { osType: 'Windows', licenseType: null } }), context)
    expect(found?.category).toBe('HybridBenefitOpportunity')
    expect(found?.estimatedMonthlySavings).toBe(62.1)
  })
  it('finds a licence-included SQL database', () => {
    const db = resource({
      resourceType: 'Microsoft.Sql/servers/databases',
      properties: { licenseType: 'LicenseIncluded' },
      dailyCosts: Array(30).fill(12.2),
    })
    expect(hybridBenefitOpportunity(db, context)?.estimatedMonthlySavings).toBe(102.48)
  })
  it('leaves alone a Windows VM with the benefit and a Linux VM', () => {
    expect(
      hybridBenefitOpportunity(vm({ properties: { osType: 'Windows', licenseType: 'Windows_Server' } }), context),
    ).toBeNull()
    expect(hybridBenefitOpportunity(vm(), context)).toBeNull()
  })
})

describe('ExpiredResource', () => {
  it('finds a resource whose expiry tag is in the past, in any spelling of the key', () => {
    for (const key of ['expiry', 'Expiry-Date', 'expires_on', 'DeleteAfter']) {
      const found = expiredResource(vm({ tags: { [key]: '2026-01-31' } }), context)
      expect(found?.category).toBe('ExpiredResource')
      expect(found?.estimatedMonthlySavings).toBe(138)
    }
  })
  it('finds an expired certificate', () => {
    const cert = costing('Microsoft.Web/certificates', { expirationDate: '2026-02-28T12:00:00Z' }, 0.2, 'cert-1')
    expect(expiredResource(cert, context)?.estimatedMonthlySavings).toBe(6)
  })
  it('leaves alone a future expiry, today, and a tag that is not a date', () => {
    expect(expiredResource(vm({ tags: { expiry: '2026-12-31' } }), context)).toBeNull()
    expect(expiredResource(vm({ tags: { expiry: '2026-03-01' } }), context)).toBeNull()
    expect(expiredResource(vm({ tags: { expiry: 'never' } }), context)).toBeNull()
  })
})

describe('every rule together', () => {
  it('a resource can have several findings, and a healthy one has none', () => {
    const windowsDev = vm({
      tags: { environment: 'dev' },
      properties: { osType: 'Windows' },
      dailyCosts: week(4.6, 4.6),
    })
    expect(findInsights(windowsDev, context).map((f) => f.category)).toEqual([
      'ScheduleOpportunity',
      'HybridBenefitOpportunity',
    ])
    expect(findInsights(vm({ dailyCosts: week(4.6, 2) }), context)).toEqual([])
  })
  it('severity follows the monthly savings', () => {
    expect([1000, 999.99, 250, 50, 49.99].map(severityOfSavings)).toEqual(['Critical', 'High', 'High', 'Medium', 'Low'])
  })
})
