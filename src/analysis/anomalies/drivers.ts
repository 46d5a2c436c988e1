/** One child of an anomalous scope on the anomaly's day: a subscription, resource group, service or resource. */
export interface ChildDay {
  key: string
  expected: number
  actual: number
}

export interface Driver extends ChildDay {
  /** actual - expected */
  change: number
  /** The child's change as a share of the parent's (0..1 when it moves the same way). */
  share: number
}

/** A child whose change is at least this share of its parent's explains the parent's anomaly on its own. */
export const EXPLAINS_SHARE = 0.5

/**
 * The children that drove a parent's change of `parentImpact` (actual - expected), largest share first: only those
 * that moved the same way as the parent, at most `limit`. A child without an expected cost (too young a series)
 * counts its whole actual cost as change.
 */
export function driversOf(parentImpact: number, children: readonly ChildDay[], limit = 5): Driver[] {
  if (parentImpact === 0) return []
  const drivers: Driver[] = []
  for (const child of children) {
    const expected = Number.isFinite(child.expected) ? child.expected : 0
    const change = child.actual - expected
    if (Math.sign(change) !== Math.sign(parentImpact)) continue
    drivers.push({ key: child.key, expected, actual: child.actual, change, share: change / parentImpact })
  }
  drivers.sort((a, b) => b.share - a.share || a.key.localeCompare(b.key))
  return drivers.slice(0, limit)
}

/** The one child that explains the parent's change on its own, if there is one. */
export function explainingChild(drivers: readonly Driver[]): Driver | null {
  const top = drivers[0]
  return top && top.share >= EXPLAINS_SHARE ? top : null
}
