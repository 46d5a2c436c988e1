import { useEffect, useState } from 'preact/hooks'
import { api, type Page } from '../../api'
import { ProblemMessage } from '../../components/problem'
import { readableResourceType } from '../../components/resource-type'
import { replaceSearch, type SearchValue, useSearchParams, withSearch } from '../../components/search-params'
import { useTagSuggestions } from '../../components/tag-suggestions'
import { TenantTabs } from '../../components/tenant-tabs'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'
import {
  inventoryApi,
  RESOURCE_SORTS,
  type Resource,
  type ResourceFilter,
  type ResourceGroup,
  type ResourceSort,
  type ResourceTypeCount,
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
  | { view: 'subscriptions'; page: Page<Subscription> }
  | { view: 'groups'; page: Page<ResourceGroup> }
  | { view: 'resources'; page: Page<Resource> }

/** What the address asks for: the list, its filters and its page. A link or a reload shows the same rows. */
function requestOf(search: URLSearchParams) {
  const view: View = VIEWS.find((v) => v.key === search.get('view'))?.key ?? 'subscriptions'
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1)
  const sort = RESOURCE_SORTS.find((s) => s.value === search.get('sort'))?.value
  const tags = search.getAll('tag').filter(Boolean)
  const filter: ResourceFilter = {
    subscriptionId: search.get('subscriptionId') || undefined,
    resourceGroupId: search.get('resourceGroupId') || undefined,
    resourceType: search.get('resourceType') || undefined,
    armResourceName: search.get('name') || undefined,
    search: search.get('search') || undefined,
    tag: tags.length ? tags : undefined,
    sort: sort === 'name' ? undefined : sort,
  }
  return { view, page, filter }
}

/** The address's parameters as `withSearch` takes them, repeated ones (`tag`) as lists. */
function paramsOf(search: URLSearchParams): Record<string, SearchValue> {
  const params: Record<string, SearchValue> = Object.fromEntries(search)
  params.tag = search.getAll('tag')
  return params
}

function load(tenantId: string, view: View, filter: ResourceFilter, page: number): Promise<Listing> {
  switch (view) {
    case 'subscriptions':
      return inventoryApi.subscriptions(tenantId, page).then((answer) => ({ view, page: answer }))
    case 'groups':
      return inventoryApi
        .resourceGroups(tenantId, { subscriptionId: filter.subscriptionId, tag: filter.tag }, page)
        .then((answer) => ({ view, page: answer }))
    case 'resources':
      return inventoryApi.resources(tenantId, filter, page).then((answer) => ({ view, page: answer }))
  }
}

/** A filter's choices; without them the lists still work, so a failure here shows only as fewer choices. */
function choices<T>(answer: Promise<{ items: T[] }>): Promise<T[]> {
  return answer.then(
    (page) => page.items,
    () => [],
  )
}

/**
 * A tenant's inventory: its subscriptions, resource groups and resources with their costs and tags, filtered as
 * the API filters them, a page at a time; every row opens its own cost chart.
 */
export function InventoryPage({ tenantId }: { tenantId: string }) {
  const search = useSearchParams()
  const { view, page, filter } = requestOf(search)
  const { data: tenant, error: tenantError } = useLoad(() => api.tenant(tenantId), [tenantId])
  const subscriptions = useLoad(() => choices(inventoryApi.allSubscriptions(tenantId)), [tenantId]).data ?? []
  const types = useLoad(() => choices(inventoryApi.resourceTypes(tenantId)), [tenantId]).data ?? []
  const groups =
    useLoad(
      () =>
        view === 'resources'
          ? choices(inventoryApi.allResourceGroups(tenantId, filter.subscriptionId))
          : Promise.resolve([]),
      [tenantId, view, filter.subscriptionId],
    ).data ?? []

  const key = search.toString()
  const {
    data: listing,
    loading,
    error: listError,
  } = useLoad(() => load(tenantId, view, filter, page), [tenantId, key])
  const error = listError ?? tenantError

  // Tag suggestions: every tag of the tenant's resources, most used keys first.
  const tagChoices = useTagSuggestions(tenantId)
  const base = `/tenants/${encodeURIComponent(tenantId)}/inventory`
  const subscriptionName = (id: string) => subscriptions.find((s) => s.subscriptionId === id)?.displayName ?? id
  const noun = VIEWS.find((v) => v.key === view)!.noun
  const filtered =
    view === 'groups'
      ? !!filter.subscriptionId || !!filter.tag
      : view === 'resources' && Object.entries(filter).some(([name, value]) => name !== 'sort' && value)
  const shown = listing?.view === view ? listing : null
  /** The same list narrowed to rows that also carry `tag`, from its first page. */
  const tagHref = (tag: string) => {
    const tags = filter.tag ?? []
    return withSearch(base, { ...paramsOf(search), tag: tags.includes(tag) ? tags : [...tags, tag], page: null })
  }

  /** Applies a change of filters: back to the first page, the rest of the address kept. */
  const applyFilter = (changes: Record<string, SearchValue>) =>
    replaceSearch({ ...paramsOf(search), ...changes, page: null })

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
          types={types}
          tagChoices={tagChoices}
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
            <ResourceGroupTable
              tenantId={tenantId}
              items={shown.page.items}
              subscriptionName={subscriptionName}
              tagHref={tagHref}
            />
          )}
          {shown.view === 'resources' && (
            <ResourceTable tenantId={tenantId} items={shown.page.items} tagHref={tagHref} />
          )}
          <Pager page={shown.page} noun={noun} href={(p) => withSearch(base, { ...paramsOf(search), page: p })} />
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
  types: ResourceTypeCount[]
  tagChoices: string[]
  subscriptionName(id: string): string
  onApply(changes: Record<string, SearchValue>): void
  onClear(): void
}) {
  const { filter } = props
  // Typed filters apply on Enter or with the button (the search also on leaving its field); choices apply at once.
  const [searchText, setSearchText] = useState(filter.search ?? '')
  const [tagText, setTagText] = useState('')
  // The address changed (a link, back, clear): the typed field follows it.
  useEffect(() => setSearchText(filter.search ?? ''), [filter.search])
  const resources = props.view === 'resources'
  const tags = filter.tag ?? []
  const any = Object.entries(filter).some(([name, value]) => name !== 'sort' && value)
  // A type the address names but the tenant no longer has stays choosable, so the picker shows what is applied.
  const typeChoices =
    filter.resourceType && !props.types.some((t) => t.resourceType.toLowerCase() === filter.resourceType!.toLowerCase())
      ? [...props.types, { resourceType: filter.resourceType, resourceCount: 0 }]
      : props.types
  const typed = () => {
    const changes: Record<string, SearchValue> = {}
    if (resources && searchText.trim() !== (filter.search ?? '')) changes.search = searchText.trim()
    const tag = tagText.trim()
    if (tag && !tags.includes(tag)) changes.tag = [...tags, tag]
    setTagText('')
    if (Object.keys(changes).length) props.onApply(changes)
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
            <select
              id="filter-type"
              value={
                typeChoices.find((t) => t.resourceType.toLowerCase() === filter.resourceType?.toLowerCase())
                  ?.resourceType ?? ''
              }
              onChange={(e) => props.onApply({ resourceType: e.currentTarget.value })}
            >
              <option value="">All types</option>
              {typeChoices.map((t) => (
                <option key={t.resourceType} value={t.resourceType}>
                  {`${readableResourceType(t.resourceType)} · ${t.resourceCount}`}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="filter-search">Name contains</label>
            <input
              id="filter-search"
              type="search"
              placeholder="e.g. web"
              value={searchText}
              onInput={(e) => setSearchText(e.currentTarget.value)}
              onChange={typed}
            />
          </div>
        </>
      )}
      <div class="field">
        <label for="filter-tag">Add a tag filter</label>
        <input
          id="filter-tag"
          type="text"
          list="tag-choices"
          placeholder="key:value or key"
          title="key:value, or a key alone for any value; Enter adds it, and every tag must match"
          value={tagText}
          onInput={(e) => setTagText(e.currentTarget.value)}
        />
        <datalist id="tag-choices">
          {props.tagChoices.slice(0, 200).map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </div>
      {resources && (
        <div class="field">
          <label for="filter-sort">Sort by</label>
          <select
            id="filter-sort"
            value={filter.sort ?? 'name'}
            onChange={(e) =>
              props.onApply({ sort: e.currentTarget.value === 'name' ? '' : (e.currentTarget.value as ResourceSort) })
            }
          >
            {RESOURCE_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {(tags.length > 0 || filter.armResourceName) && (
        <ul class="active-filters" aria-label="Active tag and name filters, all of which must match">
          {tags.map((tag) => (
            <li key={tag}>
              <span>{tag.includes(':') ? tag.replace(':', ' = ') : `has ${tag}`}</span>
              <button
                type="button"
                class="remove"
                aria-label={`Remove the tag filter ${tag}`}
                onClick={() => props.onApply({ tag: tags.filter((t) => t !== tag) })}
              >
                ×
              </button>
            </li>
          ))}
          {filter.armResourceName && (
            <li>
              <span>name is {filter.armResourceName}</span>
              <button
                type="button"
                class="remove"
                aria-label={`Remove the name filter ${filter.armResourceName}`}
                onClick={() => props.onApply({ name: '' })}
              >
                ×
              </button>
            </li>
          )}
        </ul>
      )}
      <div class="filter-actions">
        <button type="submit">Apply</button>
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
function Pager(props: { page: Page<unknown>; noun: string; href(page: number): string }) {
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
