import { answer, client, everyItem, everyOf, type Schemas } from '../../api'
import { subscriptionNames } from './subscription-names'

export type Anomaly = Schemas['Anomaly']
export type AnomalySeverity = Anomaly['severity']
export type AnomalyStatus = Anomaly['status']
export type AnomalyScope = Anomaly['scope']
export type AnomalyDriver = Anomaly['drivers'][number]
export type AnomalyFeedback = NonNullable<Anomaly['feedback']>
export type Actor = NonNullable<Anomaly['statusChangedBy']>
export const ANOMALY_SEVERITIES = everyOf<AnomalySeverity>()(['High', 'Medium', 'Low'])
export const ANOMALY_STATUSES = everyOf<AnomalyStatus>()(['Active', 'Acknowledged', 'Resolved'])
export const ANOMALY_FEEDBACKS = everyOf<AnomalyFeedback>()(['Expected', 'NotAnAnomaly', 'Confirmed'])

export interface AnomalyFilter {
  tenancyId: string
  status: string
  severity: string
  dateRaised: string
  page: number
}

export const PAGE_SIZE = 25

export function listAnomalies(filter: AnomalyFilter) {
  return answer(
    client.GET('/anomalies', {
      params: {
        query: {
          page: filter.page,
          pageSize: PAGE_SIZE,
          view: 'incidents',
          ...(filter.tenancyId ? { tenancyId: filter.tenancyId } : {}),
          ...(filter.status ? { status: filter.status as AnomalyStatus } : {}),
          ...(filter.severity ? { severity: filter.severity as AnomalySeverity } : {}),
          ...(filter.dateRaised ? { dateRaised: filter.dateRaised } : {}),
        },
      },
    }),
  )
}

export const getAnomaly = (anomalyId: string) =>
  answer(client.GET('/anomalies/{anomalyId}', { params: { path: { anomalyId } } }))

export const setAnomalyStatus = (anomalyId: string, status: 'Acknowledged' | 'Resolved') =>
  answer(client.PATCH('/anomalies/{anomalyId}', { params: { path: { anomalyId } }, body: { status } }))

/** `null` clears the judgement. */
export const setAnomalyFeedback = (anomalyId: string, feedback: AnomalyFeedback | null) =>
  answer(client.PATCH('/anomalies/{anomalyId}', { params: { path: { anomalyId } }, body: { feedback } }))

/** Every anomaly of an incident (the id of the anomaly heading it), the head included. */
export function incidentAnomalies(incidentId: string): Promise<Anomaly[]> {
  return everyItem((page, pageSize) =>
    answer(client.GET('/anomalies', { params: { query: { incidentId, page, pageSize } } })),
  )
}

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
  const query = {
    tenancyId: tenantId,
    scope: chart.scope,
    from,
    to,
    // An episode begun before the chart's range and still anomalous in it belongs on the chart.
    range: 'active' as const,
    ...(chart.subscriptionId ? { subscriptionId: chart.subscriptionId } : {}),
  }
  const pageOf = (page: number, pageSize: number) =>
    answer(client.GET('/anomalies', { params: { query: { ...query, page, pageSize } } }))
  return (await everyItem(pageOf)).reverse()
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
  return answer(client.GET('/tenants/{tenantId}/costs/daily', { params: { path: { tenantId }, query } }))
}

export const resourceName = (tenantId: string, resourceId: string) =>
  answer(client.GET('/tenants/{tenantId}/resources/{resourceId}', { params: { path: { tenantId, resourceId } } })).then(
    (r) => r.name,
  )

/** How people name an anomaly's scope (a subscription by its display name once useSubscriptionNames knows it). */
export function scopeLabel(scope: AnomalyScope, resource?: string | null): string {
  switch (scope.kind) {
    case 'Subscription':
      return `Subscription ${subscriptionNames.get(scope.subscriptionId?.toLowerCase() ?? '') ?? scope.subscriptionId}`
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
