import { expiredResource } from './expired-resource.js'
import { hybridBenefitOpportunity } from './hybrid-benefit-opportunity.js'
import { orphanedResource } from './orphaned-resource.js'
import { overProvisioned } from './over-provisioned.js'
import { reservedInstanceOpportunity } from './reserved-instance-opportunity.js'
import { scheduleOpportunity } from './schedule-opportunity.js'
import { stoppedVm } from './stopped-vm.js'
import type { Finding, InsightRule, ResourceFacts, RuleContext } from './types.js'
import { unusedResource } from './unused-resource.js'

export type { Finding, InsightRule, ResourceFacts, RuleContext } from './types.js'

/** Every insight rule; one file each, with its detection rule, severity and savings in its doc comment. */
export const INSIGHT_RULES: readonly InsightRule[] = [
  orphanedResource,
  stoppedVm,
  overProvisioned,
  scheduleOpportunity,
  reservedInstanceOpportunity,
  unusedResource,
  hybridBenefitOpportunity,
  expiredResource,
]

/** What every rule finds on one resource (a resource may have several findings, of different categories). */
export function findInsights(resource: ResourceFacts, context: RuleContext): Finding[] {
  const findings: Finding[] = []
  for (const rule of INSIGHT_RULES) {
    const found = rule(resource, context)
    if (found) findings.push(found)
  }
  return findings
}
