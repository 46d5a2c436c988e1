import { isType } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule } from './types.js'

/**
 * StoppedVm: a virtual machine stopped from inside the guest (`VM stopped`) but not deallocated: Azure keeps
 * billing its compute. Savings: all of its observed monthly compute cost (deallocating stops it; its disks are
 * separate resources and keep their own cost). Severity from the savings.
 */
export const stoppedVm: InsightRule = (resource) => {
  if (!isType(resource, 'Microsoft.Compute/virtualMachines')) return null
  const state = resource.state ?? ''
  if (!/stopped/i.test(state) || /deallocat/i.test(state)) return null
  return findingOf('StoppedVm', resource.currency, monthlyCost(resource.dailyCosts), (saving) => ({
    title: `${resource.name} is stopped but still billed`,
    description: `${resource.name} is stopped but not deallocated, so its compute is still billed: about ${saving} a month.`,
    recommendation: 'Stop it from the portal, CLI or API (deallocate), or delete it if it is no longer needed.',
  }))
}
