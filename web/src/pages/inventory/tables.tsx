import { type ComponentChildren, Fragment } from 'preact'
import { chartHref } from '../../components/chart-scope'
import { formatMoney } from '../../components/format'
import { removalText } from '../../components/removal'
import { readableResourceType } from '../../components/resource-type'
import { withSearch } from '../../components/search-params'
import { onLinkClick } from '../../router'
import type { CostSummary, Resource, ResourceGroup, Subscription, Tags } from './api'

/** The inventory's three lists as tables, each row's name a link to its own cost chart. */

const inventoryHref = (tenantId: string, params: Record<string, string>) =>
  withSearch(`/tenants/${encodeURIComponent(tenantId)}/inventory`, params)

function CostHeadings() {
  return (
    <>
      <th scope="col" class="money">
        Month to date
      </th>
      <th scope="col" class="money">
        Last 30 days
      </th>
      <th scope="col" class="money">
        Previous month
      </th>
    </>
  )
}

function CostCells({ costs }: { costs: CostSummary }) {
  return (
    <>
      <td class="money">{formatMoney(costs.monthToDate, costs.currency)}</td>
      <td class="money">{formatMoney(costs.last30Days, costs.currency)}</td>
      <td class="money">{formatMoney(costs.previousMonth, costs.currency)}</td>
    </>
  )
}

/** A count of a row's children, linking to the list of them; its name says what is counted, of what. */
function CountCell(props: { count: number; href: string; label: string }) {
  return (
    <td class="count">
      <a href={props.href} onClick={onLinkClick} aria-label={`${props.count} ${props.label}`}>
        {props.count}
      </a>
    </td>
  )
}

/** A row's tags, each a link to the same list narrowed to rows with that tag. */
function TagList({ tags, tagHref }: { tags: Tags; tagHref(tag: string): string }) {
  const entries = Object.entries(tags)
  if (entries.length === 0) return <span class="muted">none</span>
  return (
    <ul class="tag-list">
      {entries.map(([key, value]) => (
        <li key={key}>
          <a href={tagHref(`${key}:${value}`)} onClick={onLinkClick} title={`Show only those tagged ${key}=${value}`}>
            {key}={value}
          </a>
        </li>
      ))}
    </ul>
  )
}

/** `virtualMachines (Microsoft.Compute)`, its full name on hover; it breaks after a slash, not inside a word. */
function ResourceType({ type }: { type: string }) {
  const parts = readableResourceType(type).split('/')
  return (
    <span title={type}>
      {parts.map((part, i) => (
        <Fragment key={`${i}-${part}`}>
          {part}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </span>
  )
}

/** The table in its own horizontal scroller, focusable so that a keyboard can scroll it too. */
function TableFrame(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section class="table-scroll" aria-label={props.label} tabIndex={0}>
      <table class="inventory-table">{props.children}</table>
    </section>
  )
}

export function SubscriptionTable(props: { tenantId: string; items: Subscription[] }) {
  const { tenantId } = props
  return (
    <TableFrame label="Subscriptions">
      <thead>
        <tr>
          <th scope="col">Subscription</th>
          <th scope="col">State</th>
          <th scope="col" class="count">
            Groups
          </th>
          <th scope="col" class="count">
            Resources
          </th>
          <CostHeadings />
        </tr>
      </thead>
      <tbody>
        {props.items.map((sub) => (
          <tr key={sub.subscriptionId}>
            <th scope="row">
              <a href={chartHref(tenantId, { kind: 'subscription', value: sub.subscriptionId })} onClick={onLinkClick}>
                {sub.displayName}
              </a>
              <span class="muted id">{sub.subscriptionId}</span>
            </th>
            <td>{sub.state}</td>
            <CountCell
              count={sub.resourceGroupCount}
              href={inventoryHref(tenantId, { view: 'groups', subscriptionId: sub.subscriptionId })}
              label={`resource groups of ${sub.displayName}`}
            />
            <CountCell
              count={sub.resourceCount}
              href={inventoryHref(tenantId, { view: 'resources', subscriptionId: sub.subscriptionId })}
              label={`resources of ${sub.displayName}`}
            />
            <CostCells costs={sub.costs} />
          </tr>
        ))}
      </tbody>
    </TableFrame>
  )
}

export function ResourceGroupTable(props: {
  tenantId: string
  items: ResourceGroup[]
  subscriptionName(id: string): string
  tagHref(tag: string): string
}) {
  const { tenantId } = props
  return (
    <TableFrame label="Resource groups">
      <thead>
        <tr>
          <th scope="col">Resource group</th>
          <th scope="col">Location</th>
          <th scope="col">Tags</th>
          <th scope="col" class="count">
            Resources
          </th>
          <CostHeadings />
        </tr>
      </thead>
      <tbody>
        {props.items.map((group) => (
          <tr key={group.id}>
            <th scope="row">
              <a
                href={chartHref(tenantId, {
                  kind: 'resourceGroup',
                  value: group.name,
                  subscriptionId: group.subscriptionId,
                })}
                onClick={onLinkClick}
              >
                {group.name}
              </a>
              <span class="muted">{props.subscriptionName(group.subscriptionId)}</span>
            </th>
            <td>{group.location ?? '–'}</td>
            <td>
              <TagList tags={group.tags} tagHref={props.tagHref} />
            </td>
            <CountCell
              count={group.resourceCount}
              href={inventoryHref(tenantId, {
                view: 'resources',
                subscriptionId: group.subscriptionId,
                resourceGroupId: group.id,
              })}
              label={`resources of ${group.name}`}
            />
            <CostCells costs={group.costs} />
          </tr>
        ))}
      </tbody>
    </TableFrame>
  )
}

export function ResourceTable(props: { tenantId: string; items: Resource[]; tagHref(tag: string): string }) {
  const { tenantId } = props
  return (
    <TableFrame label="Resources">
      <thead>
        <tr>
          <th scope="col">Resource</th>
          <th scope="col">Group and location</th>
          <th scope="col">SKU and state</th>
          <th scope="col">Tags</th>
          <CostHeadings />
        </tr>
      </thead>
      <tbody>
        {props.items.map((resource) => (
          <tr key={resource.id}>
            <th scope="row">
              <a href={chartHref(tenantId, { kind: 'resource', value: resource.id })} onClick={onLinkClick}>
                {resource.name}
              </a>
              <span class="muted">
                <ResourceType type={resource.resourceType} />
              </span>
            </th>
            <td>
              {/* Another cloud's resource (AWS, Google Cloud) has no group: its account or project instead. */}
              {resource.resourceGroupName ?? `${resource.subscriptionId} (no group)`}
              <span class="muted">{resource.location ?? 'no location'}</span>
            </td>
            <td>
              {resource.sku ?? '–'}
              {resource.state && <span class="muted">{resource.state}</span>}
              {resource.removal && (
                <span class="muted" data-removal>
                  {removalText(resource.removal)}
                </span>
              )}
            </td>
            <td>
              <TagList tags={resource.tags} tagHref={props.tagHref} />
            </td>
            <CostCells costs={resource.costs} />
          </tr>
        ))}
      </tbody>
    </TableFrame>
  )
}
