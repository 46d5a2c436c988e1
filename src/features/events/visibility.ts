/**
 * Which event markers a cost chart shows (specification section 6). Pure: plain data in, plain data out.
 *
 * - A marker without a tag filter is universal: it is on every chart of its tenant.
 * - Broad charts (the tenant, a subscription) show every marker, tagged or not.
 * - A single-resource or single-resource-group chart shows a tagged marker only when that resource's (or
 *   group's) own tags hold the marker's key, compared case-insensitively (Azure tag names are), with exactly
 *   the marker's value.
 */

/** What visibility needs to know about a chart: broad, or the tags of the one resource or group it shows. */
export type ChartTarget = { kind: 'broad' } | { kind: 'single'; tags: Readonly<Record<string, string>> }

export interface TagFilter {
  tagKey: string | null
  tagValue: string | null
}

export function isUniversal(marker: TagFilter): boolean {
  return marker.tagKey === null || marker.tagValue === null
}

/** Whether one marker is on a chart of the target. */
export function isVisibleOn(marker: TagFilter, target: ChartTarget): boolean {
  if (isUniversal(marker) || target.kind === 'broad') return true
  const key = marker.tagKey!.toLowerCase()
  // Any spelling of the key may carry the value: tags from JSON could hold both `Env` and `env`.
  return Object.entries(target.tags).some(([k, v]) => k.toLowerCase() === key && v === marker.tagValue)
}

/** The markers of `markers` on a chart of the target, in their given order. */
export function visibleMarkers<T extends TagFilter>(markers: readonly T[], target: ChartTarget): T[] {
  return markers.filter((m) => isVisibleOn(m, target))
}
