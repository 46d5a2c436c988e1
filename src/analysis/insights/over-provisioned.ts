import { isRunningVm } from './facts.js'
import { findingOf, monthlyCost } from './money.js'
import type { InsightRule } from './types.js'

/** CPU p95 below this, in percent, over the whole window, is over-provisioned. */
export const OVER_PROVISIONED_P95 = 20
/** Days of CPU the rule needs before it speaks. */
export const OVER_PROVISIONED_MIN_DAYS = 14

/**
 * The next size down in the same family: half the vCPUs (`Standard_D16s_v5` -> `Standard_D8s_v5`,
 * `Standard_B2s` -> `Standard_B1s`); null when there is none (one vCPU, or a name we cannot read).
 */
export function nextSizeDown(size: string): { size: string; ratio: number } | null {
  const match = /^(Standard_[A-Za-z]+)(\d+)(.*)$/.exec(size)
  if (!match) return null
  const vcpus = Number(match[2])
  if (!Number.isInteger(vcpus) || vcpus < 2) return null
  const smaller = vcpus / 2
  if (!Number.isInteger(smaller)) return null
  return { size: `${match[1]}${smaller}${match[3]}`, ratio: smaller / vcpus }
}

/**
 * OverProvisioned: a running virtual machine whose CPU p95 stayed under 20% over at least 14 days. Only daily
 * p95s are kept (of the hourly values), so the window's p95 is bounded by the highest of them: when every day's
 * p95 is under 20%, at least 95% of all the hours are, so the window's p95 is too (exact in that direction: a VM
 * is never called over-provisioned when it is not; one busy day can hide one that is). A day without a p95
 * counts its maximum. Savings: the next size down in its family has half the vCPUs and, in Azure's linear family
 * pricing, half the price: the observed monthly cost times (1 - new/old). Severity from the savings.
 */
export const overProvisioned: InsightRule = (resource) => {
  if (!isRunningVm(resource) || resource.cpu.length < OVER_PROVISIONED_MIN_DAYS) return null
  const size = String(resource.properties.vmSize ?? resource.sku ?? '')
  const next = nextSizeDown(size)
  if (!next) return null
  const p95 = Math.max(...resource.cpu.map((d) => d.p95Percent ?? d.maxPercent))
  if (p95 >= OVER_PROVISIONED_P95) return null
  return findingOf(
    'OverProvisioned',
    resource.currency,
    monthlyCost(resource.dailyCosts) * (1 - next.ratio),
    (saving) => ({
      title: `${resource.name} is larger than it needs`,
      description: `${resource.name} (${size}) used at most ${p95.toFixed(1)}% CPU (p95) over ${resource.cpu.length} days.`,
      recommendation: `Resize it to ${next.size}, saving about ${saving} a month.`,
    }),
  )
}
