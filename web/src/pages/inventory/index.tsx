import { useEffect, useState } from 'preact/hooks'
import { api, type Tenant } from '../../api'
import { ProblemMessage } from '../../components/problem'
import { replaceSearch, useSearchParams, withSearch } from '../../components/search-params'
import { TenantTabs } from '../../components/tenant-tabs'
import { onLinkClick } from '../../router'
import {
  inventoryApi,
  type ListPage,
  type Resource,
  type ResourceFilter,
  type ResourceGroup,
  type Subscription,
} from './api'
import './inventory.css'
import { ResourceGroupTable, ResourceTable, SubscriptionTable } from './tables'

const VIEWS = [
  { key: 'subscriptions', label: 'Subscriptions', noun: 'subscriptions' },
  { key: 'groups', label: 'Resource groups', noun: 'resource groups' },
  { key: 'resources', label: 'Resources', noun: 'resources' },
] as const
type View = (typeof VIEWS)[number]['key']

type Listing =
  | { view: 'subscriptions'; page: ListPage<Subscription> }
  | { view: 'groups'; page: ListPage<ResourceGroup> }
  | { view: 'resources'; page: ListPage<Resource> }

/** What the address asks for: the list, its filters and its page. A link or a reload shows the same rows. */
function requestOf(search: URLSearchParams) {
  const view: View = VIEWS.find((v) => v.key === search.get('view'))?.key ?? 'subscriptions'
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1)
  const filter: ResourceFilter = {
    subscriptionId: search.get('subscriptionId') || undefined,
    resourceGroupId: search.get('resourceGroupId') || undefined,
    resourceType: search.get('resourceType') || undefined,
    armResourceName: search.get('name') || undefined,
  }
  return { view, page, filter }
}

function load(tenantId: string, view: View, filter: ResourceFilter, page: number): Promise<Listing> {
  switch (view) {
    case 'subscriptions':
      return inventoryApi.subscriptions(tenantId, page).then((answer) => ({ view, page: answer }))
    case 'groups':
      return inventoryApi
        .resourceGroups(tenantId, filter.subscriptionId, page)
        .then((answer) => ({ view, page: answer }))
    case 'resources':
      return inventoryApi.resources(tenantId, filter, page).then((answer) => ({ view, page: answer }))
  }
}

/**
 * A tenant's inventory: its subscriptions, resource groups and resources with their costs and tags, filtered as
 * the API filters them, a page at a time; every row opens its own cost chart.
 */
export function InventoryPage({ tenantId }: { tenantId: string }) {
  const search = useSearchParams()
  const { view, page, filter } = requestOf(search)
  const [tenant, setTenant] = useState<Tenant | null>(null)
  const [subscriptions, setSubscriptions] = useState<Subscription[]>([])
  const [groups, setGroups] = useState<ResourceGroup[]>([])
  const [listing, setListing] = useState<Listing | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    api.tenant(tenantId).then(setTenant, setError)
    // The filters' choices; without them the lists still work, so a failure here shows only as fewer choices.
    inventoryApi.allSubscriptions(tenantId).then(
      (answer) => setSubscriptions(answer.items),
      () => undefined,
    )
  }, [tenantId])

  useEffect(() => {
    if (view !== 'resources') return
    let current = true
    inventoryApi.allResourceGroups(tenantId, filter.subscriptionId).then(
      (answer) => current && setGroups(answer.items),
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [tenantId, view, filter.subscriptionId])

  const key = search.toString()
  useEffect(() => {
    let current = true
    setLoading(true)
    setError(null)
    load(tenantId, view, filter, page)
      .then((answer) => current && setListing(answer))
      .catch((err) => {
        if (!current) return
        setListing(null)
        setError(err)
      })
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [tenantId, key])

  const base = `/tenants/${encodeURIComponent(tenantId)}/inventory`
  const subscriptionName = (id: string) => subscriptions.find((s) => s.subscriptionId === id)?.displayName ?? id
  const noun = VIEWS.find((v) => v.key === view)!.noun
  const filtered =
    view === 'groups' ? !!filter.subscriptionId : view === 'resources' && Object.values(filter).some(Boolean)
  const shown = listing?.view === view ? listing : null

  /** Applies a change of filters: back to the first page, the rest of the address kept. */
  const applyFilter = (changes: Record<string, string>) =>
    replaceSearch({ ...Object.fromEntries(search), ...changes, page: null })

  return (
    <section aria-labelledby="inventory-title">
      <h1 id="inventory-title">{tenant ? tenant.name : 'Inventory'}</h1>
      <TenantTabs tenantId={tenantId} />
      <nav class="view-switch" aria-label="Inventory lists">
        {VIEWS.map((v) => (
          <a
            key={v.key}
            href={withSearch(base, {
              view: v.key,
              subscriptionId: v.key === 'subscriptions' ? null : filter.subscriptionId,
            })}
            onClick={onLinkClick}
            aria-current={v.key === view ? 'page' : undefined}
          >
            {v.label}
          </a>
        ))}
      </nav>

      {view !== 'subscriptions' && (
        <Filters
          view={view}
          filter={filter}
          subscriptions={subscriptions}
          groups={groups}
          types={shown?.view === 'resources' ? shown.page.items.map((r) => r.resourceType) : []}
          subscriptionName={subscriptionName}
          onApply={applyFilter}
          onClear={() => replaceSearch({ view })}
        />
      )}

      <ProblemMessage error={error} />
      {loading && (
        <p class="status" role="status">
          Loading {noun}…
        </p>
      )}
      {shown && !loading && shown.page.items.length === 0 && (
        <p class="status empty">
          {filtered
            ? `No ${noun} match these filters.`
            : `No ${noun} yet: they appear after the tenant's first snapshot.`}
        </p>
      )}
      {shown && shown.page.items.length > 0 && (
        <div class={loading ? 'stale' : undefined} aria-busy={loading}>
          {shown.view === 'subscriptions' && <SubscriptionTable tenantId={tenantId} items={shown.page.items} />}
          {shown.view === 'groups' && (
            <ResourceGroupTable tenantId={tenantId} items={shown.page.items} subscriptionName={subscriptionName} />
          )}
          {shown.view === 'resources' && <ResourceTable tenantId={tenantId} items={shown.page.items} />}
          <Pager
            page={shown.page}
            noun={noun}
            href={(p) => withSearch(base, { ...Object.fromEntries(search), page: p })}
          />
        </div>
      )}
    </section>
  )
}

function Filters(props: {
  view: View
  filter: ResourceFilter
  subscriptions: Subscription[]
  groups: ResourceGroup[]
  types: string[]
  subscriptionName(id: string): string
  onApply(changes: Record<string, string>): void
  onClear(): void
}) {
  const { filter } = props
  // Typed filters apply on Enter, on leaving the field, or with the button; choices apply at once.
  const [type, setType] = useState(filter.resourceType ?? '')
  const [name, setName] = useState(filter.armResourceName ?? '')
  // The address changed (a link, back, clear): the typed fields follow it.
  useEffect(() => setType(filter.resourceType ?? ''), [filter.resourceType])
  useEffect(() => setName(filter.armResourceName ?? ''), [filter.armResourceName])
  const resources = props.view === 'resources'
  const any = Object.values(filter).some(Boolean)
  const types = [...new Set(props.types)].sort()
  const typed = () => {
    if (type.trim() !== (filter.resourceType ?? '') || name.trim() !== (filter.armResourceName ?? ''))
      props.onApply({ resourceType: type.trim(), name: name.trim() })
  }

  return (
    <form
      class="filters inventory-filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault()
        typed()
      }}
    >
      <div class="field">
        <label for="filter-subscription">Subscription</label>
        <select
          id="filter-subscription"
          value={filter.subscriptionId ?? ''}
          onChange={(e) => props.onApply({ subscriptionId: e.currentTarget.value, resourceGroupId: '' })}
        >
          <option value="">All subscriptions</option>
          {props.subscriptions.map((s) => (
            <option key={s.subscriptionId} value={s.subscriptionId}>
              {s.displayName}
            </option>
          ))}
        </select>
      </div>
      {resources && (
        <>
          <div class="field">
            <label for="filter-group">Resource group</label>
            <select
              id="filter-group"
              value={filter.resourceGroupId ?? ''}
              onChange={(e) => props.onApply({ resourceGroupId: e.currentTarget.value })}
            >
              <option value="">All resource groups</option>
              {props.groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {filter.subscriptionId ? g.name : `${g.name} (${props.subscriptionName(g.subscriptionId)})`}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="filter-type">Resource type</label>
            <input
              id="filter-type"
              type="text"
              list="resource-types"
              placeholder="e.g. Microsoft.Compute/virtualMachines"
              value={type}
              onInput={(e) => setType(e.currentTarget.value)}
              onChange={typed}
            />
            <datalist id="resource-types">
              {types.map((t) => (
                <option key={t} value={t} />
              ))}
            </datalist>
          </div>
          <div class="field">
            <label for="filter-name">Name (exact)</label>
            <input
              id="filter-name"
              type="text"
              placeholder="e.g. vm-web-0001"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              onChange={typed}
            />
          </div>
        </>
      )}
      <div class="filter-actions">
        {resources && <button type="submit">Apply</button>}
        {any && (
          <button type="button" class="plain" onClick={props.onClear}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  )
}

/** Previous and next pages as links, so each page has an address of its own. */
function Pager(props: { page: ListPage<unknown>; noun: string; href(page: number): string }) {
  const { page, totalPages, totalCount } = props.page
  const link = (target: number, label: string, rel: string) =>
    target >= 1 && target <= totalPages ? (
      <a href={props.href(target)} onClick={onLinkClick} rel={rel}>
        {label}
      </a>
    ) : (
      <span class="disabled" aria-disabled="true">
        {label}
      </span>
    )
  // One page needs no page links, only the count.
  if (totalPages <= 1) return <p class="pager">{`${totalCount} ${props.noun}`}</p>
  return (
    <nav class="pager" aria-label="Pages">
      {link(page - 1, 'Previous page', 'prev')}
      <span>
        Page {page} of {Math.max(1, totalPages)} · {totalCount} {props.noun}
      </span>
      {link(page + 1, 'Next page', 'next')}
    </nav>
  )
}
