import { dayDiff, toDay } from '../../platform/time.js'
import { isType } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule, ResourceFacts, RuleContext } from './types.js'

/** A disk snapshot older than this many days is kept for nothing. */
export const OLD_SNAPSHOT_DAYS = 90
const GATEWAYS = [
  'Microsoft.Network/applicationGateways',
  'Microsoft.Network/virtualNetworkGateways',
  'Microsoft.Network/natGateways',
  'Microsoft.Network/loadBalancers',
]

/** Whole days from an instant's UTC day to `today`; null when the instant is not a date. */
function ageInDays(instant: string, today: string): number | null {
  const at = Date.parse(instant)
  return Number.isNaN(at) ? null : dayDiff(toDay(new Date(at)), today)
}

/** Why the resource looks unused, or null. */
function unused(resource: ResourceFacts, context: RuleContext): string | null {
  const p = resource.properties
  if (isType(resource, 'Microsoft.Storage/storageAccounts') && p.usedCapacityBytes === 0) {
    return 'a storage account that stores nothing'
  }
  if (GATEWAYS.some((type) => isType(resource, type))) {
    if (p.bytesProcessed === 0) return 'a gateway that carried no traffic'
    if (Array.isArray(p.backendAddressPools) && p.backendAddressPools.length === 0) {
      return 'a gateway with no backend to send traffic to'
    }
  }
  if (isType(resource, 'Microsoft.Compute/snapshots') && typeof p.timeCreated === 'string') {
    const age = ageInDays(p.timeCreated, context.today)
    if (age !== null && age > OLD_SNAPSHOT_DAYS) return `a disk snapshot ${age} days old`
  }
  return null
}

/**
 * UnusedResource: a resource with no usage or activity: a storage account with no data (`usedCapacityBytes` 0),
 * an application, VPN or NAT gateway or load balancer that processed no bytes or has no backend, or a disk
 * snapshot older than 90 days. Savings: all of its observed monthly cost. Severity from the savings.
 */
export const unusedResource: InsightRule = (resource, context) => {
  const what = unused(resource, context)
  if (!what) return null
  return findingOf('UnusedResource', resource.currency, monthlyCost(resource.dailyCosts), (saving) => ({
    title: `${resource.name} is unused`,
    description: `${resource.name} is ${what}, and costs about ${saving} a month.`,
    recommendation: 'Delete it, or confirm with its owner that it is still needed.',
  }))
}
