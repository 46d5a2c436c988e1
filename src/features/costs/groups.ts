/**
 * A chart's groups, ranked: the charts and the forecast both keep the largest groups by cost over what they read
 * and fold the rest into one, so that a forecast answers for the same series as the chart beside it.
 */

/** The name of the group holding every group past the largest. */
export const OTHER_GROUP = '(other)'

export interface KeyedCost {
  date: string
  key: string
  cost: number
}

/** Rows summed per key and day. */
export function byKeyAndDay(rows: readonly KeyedCost[]): Map<string, Map<string, number>> {
  const keyed = new Map<string, Map<string, number>>()
  for (const r of rows) {
    const days = keyed.get(r.key) ?? new Map<string, number>()
    days.set(r.date, (days.get(r.date) ?? 0) + r.cost)
    keyed.set(r.key, days)
  }
  return keyed
}

const totalOf = (days: ReadonlyMap<string, number>) => [...days.values()].reduce((a, b) => a + b, 0)

/** The keys kept (the largest total first, then by key; at most `maxGroups`), the others mapped to OTHER_GROUP. */
export function keptKeys(
  costs: ReadonlyMap<string, ReadonlyMap<string, number>>,
  maxGroups: number,
): (key: string) => string {
  const ranked = [...costs.entries()]
    .map(([key, days]) => ({ key, total: totalOf(days) }))
    .sort((a, b) => b.total - a.total || (a.key < b.key ? -1 : 1))
  const kept = new Set(ranked.slice(0, maxGroups).map((g) => g.key))
  return (key) => (kept.has(key) ? key : OTHER_GROUP)
}

/** The rows' groups ranked and folded: the kept ones largest first, OTHER_GROUP last, each with its days' sums. */
export function rankedGroups(
  rows: readonly KeyedCost[],
  maxGroups: number,
): { key: string; total: number; days: Map<string, number> }[] {
  const keyOf = keptKeys(byKeyAndDay(rows), maxGroups)
  const folded = byKeyAndDay(rows.map((r) => ({ ...r, key: keyOf(r.key) })))
  return [...folded.entries()]
    .map(([key, days]) => ({ key, total: totalOf(days), days }))
    .sort(
      (a, b) =>
        Number(a.key === OTHER_GROUP) - Number(b.key === OTHER_GROUP) || b.total - a.total || (a.key < b.key ? -1 : 1),
    )
}
