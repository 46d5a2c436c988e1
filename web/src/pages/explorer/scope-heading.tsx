import { useEffect, useState } from 'preact/hooks'
import { answer, client, type Tenant } from '../../api'
import { type ChartScope, chartHref, SCOPE_LABELS } from '../../components/chart-scope'
import { removalText } from '../../components/removal'
import { readableResourceType } from '../../components/resource-type'
import { onLinkClick } from '../../router'
import './scope-heading.css'

interface ScopeName {
  name: string
  /** Where it sits: the resource's type and group, the group's subscription… */
  detail: string | null
  /** A removed resource's removal, in words (its drop to zero is no anomaly). */
  note?: string
}

/** The name of what a scoped chart shows, from its single-item route; null while unknown. */
async function scopeName(tenantId: string, scope: ChartScope): Promise<ScopeName | null> {
  switch (scope.kind) {
    case 'tenant':
      return null
    case 'subscription': {
      const sub = await answer(
        client.GET('/tenants/{tenantId}/subscriptions/{subscriptionId}', {
          params: { path: { tenantId, subscriptionId: scope.value } },
        }),
      )
      return { name: sub.displayName, detail: sub.subscriptionId }
    }
    case 'resourceGroup': {
      const group = await answer(
        client.GET('/tenants/{tenantId}/resource-groups/{resourceGroupName}', {
          params: {
            path: { tenantId, resourceGroupName: scope.value },
            query: scope.subscriptionId ? { subscriptionId: scope.subscriptionId } : {},
          },
        }),
      )
      return { name: group.name, detail: group.location }
    }
    case 'resource': {
      const resource = await answer(
        client.GET('/tenants/{tenantId}/resources/{resourceId}', {
          params: { path: { tenantId, resourceId: scope.value } },
        }),
      )
      return {
        name: resource.name,
        detail: `${readableResourceType(resource.resourceType)} in ${resource.resourceGroupName ?? resource.subscriptionId}`,
        ...(resource.removal ? { note: removalText(resource.removal) } : {}),
      }
    }
  }
}

/**
 * The explorer's heading: the tenant's name, or, on the chart of one subscription, group or resource, its kind
 * and name with the tenant above it and a link back to the whole tenant's chart.
 */
export function ScopeHeading(props: { tenantId: string; tenant: Tenant | null; scope: ChartScope }) {
  const { tenantId, tenant, scope } = props
  const [named, setNamed] = useState<ScopeName | null>(null)

  useEffect(() => {
    let current = true
    setNamed(null)
    // A failed lookup leaves the raw value in the heading: the chart's own request shows the problem in words.
    scopeName(tenantId, scope).then(
      (answer) => current && setNamed(answer),
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [tenantId, scope.text, scope.subscriptionId])

  if (scope.kind === 'tenant') return <h1 id="explorer-title">{tenant ? tenant.name : 'Cost explorer'}</h1>
  return (
    <div class="scope-heading">
      <p class="breadcrumb muted">{tenant ? tenant.name : 'Tenant'}</p>
      <h1 id="explorer-title">
        <span class="scope-kind">{SCOPE_LABELS[scope.kind]}</span> {named?.name ?? scope.value}
      </h1>
      <p class="scope-detail">
        {named?.detail && <span class="muted">{named.detail}</span>}
        <a href={chartHref(tenantId)} onClick={onLinkClick}>
          Back to the whole tenant
        </a>
      </p>
      {named?.note && (
        <p class="scope-note" role="note">
          {named.note}
        </p>
      )}
    </div>
  )
}
