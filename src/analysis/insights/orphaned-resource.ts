import { isType } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule, ResourceFacts } from './types.js'

/** Why the resource is orphaned, or null when it is in use. */
function orphaned(resource: ResourceFacts): string | null {
  const p = resource.properties
  if (isType(resource, 'Microsoft.Compute/disks')) {
    const unattached = p.diskState === 'Unattached' || resource.state === 'Unattached'
    return unattached && !p.managedBy ? 'a managed disk attached to no virtual machine' : null
  }
  if (isType(resource, 'Microsoft.Network/publicIPAddresses')) {
    // As Resource Graph gives them (`ipConfiguration`, `natGateway`) or as the Azure connector keeps their ids.
    const associated = p.ipConfiguration || p.ipConfigurationId || p.natGateway || p.natGatewayId
    return !associated ? 'a public IP address associated with nothing' : null
  }
  if (isType(resource, 'Microsoft.Web/serverFarms')) {
    return p.numberOfSites === 0 ? 'an App Service plan that hosts no app' : null
  }
  return null
}

/**
 * OrphanedResource: an unattached managed disk (`diskState` Unattached and no `managedBy`), a public IP address
 * with no IP configuration or NAT gateway (the objects, or their ids `ipConfigurationId`, `natGatewayId`), or an
 * App Service plan with no sites, that still costs money.
 * Savings: all of its observed monthly cost (deleting it stops every charge). Severity from the savings.
 */
export const orphanedResource: InsightRule = (resource) => {
  const what = orphaned(resource)
  if (!what) return null
  return findingOf('OrphanedResource', resource.currency, monthlyCost(resource.dailyCosts), (saving) => ({
    title: `${resource.name} is orphaned`,
    description: `${resource.name} is ${what}, and costs about ${saving} a month.`,
    recommendation: 'Delete it if nothing needs it (snapshot a disk first if its data may matter).',
  }))
}
