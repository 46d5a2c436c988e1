import { isType } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule, ResourceFacts } from './types.js'

/**
 * The Windows Server licence's share of a Windows VM's pay-as-you-go price: about 45% in general-purpose sizes
 * (D4s v5: 0.376 USD an hour on Windows against 0.192 on Linux).
 */
export const WINDOWS_LICENCE_SHARE = 0.45
/** The SQL Server licence's share of a vCore database's licence-included price: about 28% (General Purpose). */
export const SQL_LICENCE_SHARE = 0.28

function licence(resource: ResourceFacts): { product: string; share: number } | null {
  const p = resource.properties
  if (isType(resource, 'Microsoft.Compute/virtualMachines')) {
    const windows = String(p.osType ?? '').toLowerCase() === 'windows'
    const covered = p.licenseType === 'Windows_Server' || p.licenseType === 'Windows_Client'
    return windows && !covered ? { product: 'Windows Server', share: WINDOWS_LICENCE_SHARE } : null
  }
  if (isType(resource, 'Microsoft.Sql/servers/databases')) {
    return p.licenseType === 'LicenseIncluded' ? { product: 'SQL Server', share: SQL_LICENCE_SHARE } : null
  }
  return null
}

/**
 * HybridBenefitOpportunity: a Windows virtual machine without Azure Hybrid Benefit (`licenseType` neither
 * Windows_Server nor Windows_Client), or a vCore SQL database with its licence included (`LicenseIncluded`).
 * Savings: the licence's share of the observed monthly cost (45% for Windows, 28% for SQL), for an organisation
 * that holds licences with Software Assurance. Severity from the savings.
 */
export const hybridBenefitOpportunity: InsightRule = (resource) => {
  const l = licence(resource)
  if (!l) return null
  return findingOf(
    'HybridBenefitOpportunity',
    resource.currency,
    monthlyCost(resource.dailyCosts) * l.share,
    (saving) => ({
      title: `${resource.name} pays for a ${l.product} licence`,
      description: `${resource.name} is billed with its ${l.product} licence included.`,
      recommendation: `If you own ${l.product} licences with Software Assurance, turn on Azure Hybrid Benefit, saving about ${saving} a month.`,
    }),
  )
}
