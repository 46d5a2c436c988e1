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

/** Nearest-rank percentile of `values` (0 < p <= 100). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1]!
}

/**
 * OverProvisioned: a running virtual machine whose CPU p95 stayed under 20% over at least 14 days (the 95th
 * percentile of its daily p95s; a day without a p95 counts its maximum). Savings: the next size down in its family
 * has half the vCPUs and, in Azure's linear family pricing, half the price: the observed monthly cost times
 * (1 - new/old). Severity from the savings.
 */
export const overProvisioned: InsightRule = (resource) => {
  if (!isRunningVm(resource) || resource.cpu.length < OVER_PROVISIONED_MIN_DAYS) return null
  const size = String(resource.properties.vmSize ?? resource.sku ?? '')
  const next = nextSizeDown(size)
  if (!next) return null
  const p95 = percentile(
    resource.cpu.map((d) => d.p95Percent ?? d.maxPercent),
    95,
  )
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
