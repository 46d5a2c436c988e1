/**
 * The `scope` of a cost chart and of the event markers drawn on it, one grammar for both features: `tenant`,
 * `subscription:{subscriptionId}`, `resourceGroup:{name}` or `resource:{resourceId}`. Pure text in, plain data out;
 * each feature resolves the scope against the inventory its own way.
 */

/** A chart's scope as the caller names it: `tenant`, `subscription:{id}`, `resourceGroup:{name}`, `resource:{uuid}`. */
export type ChartScope =
  | { kind: 'tenant' }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'resourceGroup'; name: string }
  | { kind: 'resource'; resourceId: string }

/**
 * A chart's scope found in the inventory, once per request: what both a chart's costs (the rows it sums) and its
 * markers (the tags a tagged marker must match) need of it.
 */
export type ResolvedChartScope =
  | { kind: 'tenant' }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'resourceGroup'; subscriptionId: string; name: string; tags: Readonly<Record<string, string>> }
  | { kind: 'resource'; armId: string; tags: Readonly<Record<string, string>> }

/** The field error of a malformed scope. */
export const CHART_SCOPE_ERROR =
  'must be tenant, subscription:{subscriptionId}, resourceGroup:{name} or resource:{resourceId}'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Parses a `scope` query value; null when it is malformed (the caller answers 400). */
export function parseChartScope(text: string): ChartScope | null {
  if (text === 'tenant') return { kind: 'tenant' }
  const colon = text.indexOf(':')
  if (colon < 0) return null
  const kind = text.slice(0, colon)
  const value = text.slice(colon + 1)
  if (value.trim() === '') return null
  if (kind === 'subscription') return { kind, subscriptionId: value }
  if (kind === 'resourceGroup') return { kind, name: value }
  if (kind === 'resource') return UUID.test(value) ? { kind, resourceId: value.toLowerCase() } : null
  return null
}

export function formatChartScope(scope: ChartScope): string {
  switch (scope.kind) {
    case 'tenant':
      return 'tenant'
    case 'subscription':
      return `subscription:${scope.subscriptionId}`
    case 'resourceGroup':
      return `resourceGroup:${scope.name}`
    case 'resource':
      return `resource:${scope.resourceId}`
  }
}
