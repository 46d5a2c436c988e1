/**
 * What one cost chart shows, as the API names it (`tenant`, `subscription:ID`, `resourceGroup:NAME`,
 * `resource:ID`) and as the explorer's address carries it (`/tenants/:id?scope=...`), so that a link from any page
 * opens the chart of one subscription, group or resource, and a reload keeps it.
 */
export type ScopeKind = 'tenant' | 'subscription' | 'resourceGroup' | 'resource'

export interface ChartScope {
  kind: ScopeKind
  /** The subscription id, group name or resource id; '' for the tenant. */
  value: string
  /** The API's text: `tenant` or `kind:value`. */
  text: string
  /** Chooses among resource groups of one name in several subscriptions. */
  subscriptionId: string | null
}

const KINDS: readonly ScopeKind[] = ['subscription', 'resourceGroup', 'resource']

export const SCOPE_LABELS: Record<ScopeKind, string> = {
  tenant: 'Tenant',
  subscription: 'Subscription',
  resourceGroup: 'Resource group',
  resource: 'Resource',
}

/** The chart scope of a page address; a malformed one is passed on as it is, for the API to refuse in words. */
export function chartScopeOf(search: URLSearchParams): ChartScope {
  const text = search.get('scope') ?? 'tenant'
  const subscriptionId = search.get('subscriptionId') || null
  const colon = text.indexOf(':')
  const kind = KINDS.find((k) => k === text.slice(0, colon))
  if (colon < 0 || !kind) return { kind: 'tenant', value: '', text, subscriptionId }
  return { kind, value: text.slice(colon + 1), text, subscriptionId }
}

/** The explorer's address for one chart: the whole tenant, or one subscription, group or resource of it. */
export function chartHref(
  tenantId: string,
  scope?: { kind: Exclude<ScopeKind, 'tenant'>; value: string; subscriptionId?: string },
): string {
  const path = `/tenants/${encodeURIComponent(tenantId)}`
  if (!scope) return path
  const query = new URLSearchParams({ scope: `${scope.kind}:${scope.value}` })
  if (scope.subscriptionId) query.set('subscriptionId', scope.subscriptionId)
  return `${path}?${query}`
}
