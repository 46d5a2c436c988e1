import type { Period, ReportSource } from './types.js'

/** One resource's total over a period in one currency, with what a reader recognises it by. */
export interface ResourceTotal {
  resourceKey: string
  name: string
  resourceType: string
  resourceGroupName: string
  subscriptionId: string
  tags: Record<string, string>
  currency: string
  cost: number
}

/** The name of a subscription's own charges (purchases, taxes), which belong to no resource. */
export const SUBSCRIPTION_CHARGES = '(subscription charges)'

/** The last segment of an ARM id, the name when the inventory has not seen the resource. */
function nameFromKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1) || key
}

/**
 * Every resource's total (all services summed) per currency, tenancy after tenancy, in batches in resource-key
 * order: what the source's batches hold, folded without holding more than one batch.
 */
export async function* resourceTotals(
  source: ReportSource,
  tenancyIds: string[],
  period: Period,
): AsyncGenerator<ResourceTotal[]> {
  for (const tenancyId of [...tenancyIds].sort()) {
    for await (const { costs, facts } of source.resourceCosts(tenancyId, period)) {
      const out: ResourceTotal[] = []
      let last: ResourceTotal | undefined
      // Rows come ordered by resource, service, currency: a resource's currencies are folded in a small map.
      const open = new Map<string, ResourceTotal>()
      for (const c of costs) {
        if (last && last.resourceKey !== c.resourceKey) {
          out.push(...open.values())
          open.clear()
        }
        let total = open.get(c.currency)
        if (!total) {
          const fact = facts.get(c.resourceKey)
          total = {
            resourceKey: c.resourceKey,
            name: c.resourceKey === '' ? SUBSCRIPTION_CHARGES : (fact?.name ?? nameFromKey(c.resourceKey)),
            resourceType: fact?.resourceType ?? '',
            resourceGroupName: fact?.resourceGroupName ?? c.resourceGroupKey,
            subscriptionId: c.subscriptionId,
            tags: fact?.tags ?? {},
            currency: c.currency,
            cost: 0,
          }
          open.set(c.currency, total)
        }
        total.cost += c.cost
        last = total
      }
      out.push(...open.values())
      if (out.length) yield out
    }
  }
}

/** The `n` largest of a stream by `cost`, holding at most 2n at a time; largest first, `tie` breaking ties. */
export function largest<T extends { cost: number }>(n: number, tie: (a: T, b: T) => number) {
  let kept: T[] = []
  const order = (a: T, b: T) => b.cost - a.cost || tie(a, b)
  return {
    add(items: readonly T[]) {
      for (const item of items) kept.push(item)
      if (kept.length > 2 * n) kept = kept.sort(order).slice(0, n)
    },
    result(): T[] {
      return kept.sort(order).slice(0, n)
    },
  }
}

/** Money is summed from many float rows: cents are what a report shows. */
export function cents(value: number): number {
  return Math.round(value * 100) / 100
}
