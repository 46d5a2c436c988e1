import { type CostSeries, call, type EventMarker, everyItem, type Page } from '../../api'

export type AnomalySeverity = 'High' | 'Medium' | 'Low'
export type AnomalyStatus = 'Active' | 'Acknowledged' | 'Resolved'
export const ANOMALY_SEVERITIES: AnomalySeverity[] = ['High', 'Medium', 'Low']
export const ANOMALY_STATUSES: AnomalyStatus[] = ['Active', 'Acknowledged', 'Resolved']

export interface AnomalyScope {
  kind: 'Tenant' | 'Subscription' | 'ResourceGroup' | 'Resource' | 'Service'
  subscriptionId: string | null
  resourceGroupName: string | null
  resourceId: string | null
  serviceName: string | null
}
export interface Actor {
  type: string
  id: string | null
  name: string | null
}
export interface AnomalyDriver {
  scope: AnomalyScope
  label: string
  expectedCost: number
  actualCost: number
  change: number
  share: number
}
export interface Anomaly {
  id: string
  tenancyId: string
  scope: AnomalyScope
  dateRaised: string
  severity: AnomalySeverity
  status: AnomalyStatus
  expectedCost: number
  actualCost: number
  impact: number
  impactPercent: number
  currency: string
  description: string
  drivers: AnomalyDriver[]
  relatedEvents: EventMarker[]
  detectedAt: string
  statusChangedAt: string | null
  statusChangedBy: Actor | null
}
export interface AnomalyFilter {
  tenancyId: string
  status: string
  severity: string
  dateRaised: string
  page: number
}

export const PAGE_SIZE = 25

export function listAnomalies(filter: AnomalyFilter) {
  const params = new URLSearchParams({ page: String(filter.page), pageSize: String(PAGE_SIZE) })
  for (const key of ['tenancyId', 'status', 'severity', 'dateRaised'] as const) {
    if (filter[key]) params.set(key, filter[key])
  }
  return call<Page<Anomaly>>('GET', `/anomalies?${params}`)
}

export const getAnomaly = (id: string) => call<Anomaly>('GET', `/anomalies/${encodeURIComponent(id)}`)

export const setAnomalyStatus = (id: string, status: 'Acknowledged' | 'Resolved') =>
  call<Anomaly>('PATCH', `/anomalies/${encodeURIComponent(id)}`, { status })

/**
 * The anomalies drawn on one chart of a tenant (`scope` as the explorer's address names it: its own and those of
 * the scopes inside it) raised from `from` to `to`, oldest first: every page of them (the API lists newest first).
 */
export async function chartAnomalies(
  tenantId: string,
  chart: { scope: string; subscriptionId: string | null },
  from: string,
  to: string,
): Promise<Anomaly[]> {
  const params = new URLSearchParams({ tenancyId: tenantId, scope: chart.scope, from, to })
  if (chart.subscriptionId) params.set('subscriptionId', chart.subscriptionId)
  return (await everyItem<Anomaly>(`/anomalies?${params}`)).reverse()
}

/** The chart scope (`costs/daily?scope=`) an anomaly belongs to; a service is drawn on the tenant by service. */
export function chartScopeOf(scope: AnomalyScope): { scope: string; subscriptionId?: string; groupBy?: string } {
  switch (scope.kind) {
    case 'Subscription':
      return { scope: `subscription:${scope.subscriptionId}` }
    case 'ResourceGroup':
      return { scope: `resourceGroup:${scope.resourceGroupName}`, subscriptionId: scope.subscriptionId ?? undefined }
    case 'Resource':
      return { scope: `resource:${scope.resourceId}` }
    case 'Service':
      return { scope: 'tenant', groupBy: 'service' }
    default:
      return { scope: 'tenant' }
  }
}

export function scopedDailyCosts(
  tenantId: string,
  query: { scope: string; subscriptionId?: string; groupBy?: string; from: string; to: string },
) {
  const params = new URLSearchParams({ scope: query.scope, from: query.from, to: query.to })
  if (query.subscriptionId) params.set('subscriptionId', query.subscriptionId)
  if (query.groupBy) params.set('groupBy', query.groupBy)
  return call<CostSeries>('GET', `/tenants/${encodeURIComponent(tenantId)}/costs/daily?${params}`)
}

export const resourceName = (tenantId: string, resourceId: string) =>
  call<{ name: string }>(
    'GET',
    `/tenants/${encodeURIComponent(tenantId)}/resources/${encodeURIComponent(resourceId)}`,
  ).then((r) => r.name)

/** How people name an anomaly's scope. */
export function scopeLabel(scope: AnomalyScope, resource?: string | null): string {
  switch (scope.kind) {
    case 'Subscription':
      return `Subscription ${scope.subscriptionId}`
    case 'ResourceGroup':
      return `Resource group ${scope.resourceGroupName}`
    case 'Resource':
      return resource ? `Resource ${resource}` : `Resource in group ${scope.resourceGroupName ?? '(none)'}`
    case 'Service':
      return `Service ${scope.serviceName}`
    default:
      return 'Whole tenant'
  }
}
