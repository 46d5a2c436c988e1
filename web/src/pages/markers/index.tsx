import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiProblem, api, client, type EventCategory, hasRole, type SessionUser } from '../../api'
import { CATEGORY_COLOURS, markerTag } from '../../components/chart/markers'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { formatInstant, formatMoney } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { TenantTabs } from '../../components/tenant-tabs'
import { useConditionalPoll } from '../../components/use-conditional-poll'
import { useLoad } from '../../components/use-load'
import { type CostImpact, type MarkerFilter, type MarkerPage, type MarkerRecord, markersApi, type TagKey } from './api'
import { CATEGORY_MEANINGS, MarkerForm } from './marker-form'
import './markers.css'

const NO_FILTER: MarkerFilter = { category: '', from: '', to: '', page: 1 }
/** The widest window the API takes (no marker can be older), for a list without date bounds. */
const FIRST_INSTANT = '0100-01-01T00:00:00.000Z'
const LAST_INSTANT = '9999-12-31T23:59:59.999Z'

/**
 * What to ask so that the ETag changes when a marker the list may show is created, changed or deleted: the tenant
 * chart's markers over the filter's days, asked for with explicit bounds so that the ETag does not move with the
 * clock. The list itself has no ETag; it is loaded again when this answers.
 */
function changesQuery(filter: MarkerFilter) {
  return {
    scope: 'tenant',
    from: filter.from ? `${filter.from}T00:00:00.000Z` : FIRST_INSTANT,
    to: filter.to ? `${filter.to}T23:59:59.999Z` : LAST_INSTANT,
  }
}

/**
 * Whether the user may edit and delete `marker`, as the server rules (features/events, `mayChange`): an Editor its
 * creator, or an Admin of the tenancy (owners are Admin everywhere). The server still decides.
 */
function canChange(user: SessionUser, tenantId: string, marker: MarkerRecord): boolean {
  const isCreator = marker.createdBy.type === 'User' && marker.createdBy.id === user.id
  return hasRole(user, tenantId, isCreator ? 'Editor' : 'Admin')
}

/** A tenant's event markers: filtered and paged, each with its cost impact; Editors create, edit and delete them. */
export function MarkersPage({ tenantId, user }: { tenantId: string; user: SessionUser }) {
  const canEdit = hasRole(user, tenantId, 'Editor')
  const [filter, setFilter] = useState<MarkerFilter>(NO_FILTER)
  const { data: tenant, error: tenantError } = useLoad(() => api.tenant(tenantId), [tenantId])
  const {
    data: page,
    loading,
    error: listError,
    reload,
  } = useLoad(() => markersApi.list(tenantId, filter), [tenantId, filter])
  const error = listError ?? tenantError
  // A marker made or changed elsewhere (a CI pipeline, another person) shows within seconds, as on the chart.
  const changes = changesQuery(filter)
  useConditionalPoll(
    JSON.stringify([tenantId, changes]),
    (ifNoneMatch, signal) =>
      client.GET('/tenants/{tenantId}/events/visible', {
        params: { path: { tenantId }, query: changes },
        headers: ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {},
        signal,
      }),
    reload,
  )
  /**
   * Markers deleted here: off the list as soon as the server said so, and kept off, whatever answer comes next
   * (a list asked for before the delete may answer after it).
   */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set())
  const items = page ? page.items.filter((m) => !gone.has(m.id)) : []
  const [tags, setTags] = useState<TagKey[]>([])
  /** null: no form; 'new': the create form; a marker: its edit form. */
  const [editing, setEditing] = useState<MarkerRecord | 'new' | null>(null)
  const [deleting, setDeleting] = useState<MarkerRecord | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const noticeRef = useRef<HTMLParagraphElement>(null)
  // The control that was used (the form's button, the dialog's) is gone: keyboard focus goes to the outcome.
  useEffect(() => {
    if (notice) noticeRef.current?.focus()
  }, [notice])

  useEffect(() => {
    if (!canEdit) return
    // Suggestions only: without them the tag fields still take any text.
    markersApi.tags(tenantId).then(
      (answer) => setTags(answer.keys),
      () => setTags([]),
    )
  }, [tenantId, canEdit])

  const changeFilter = (change: Partial<MarkerFilter>) => setFilter({ ...filter, ...change, page: 1 })
  const saved = (marker: MarkerRecord) => {
    setNotice(editing === 'new' ? `Marker “${marker.title}” created.` : `Marker “${marker.title}” saved.`)
    setEditing(null)
    if (filter.page === 1) reload()
    else setFilter({ ...filter, page: 1 })
  }
  const deleted = (marker: MarkerRecord, already = false) => {
    setGone((before) => new Set(before).add(marker.id))
    setNotice(already ? `Marker “${marker.title}” had already been deleted.` : `Marker “${marker.title}” deleted.`)
    setDeleting(null)
    const lastOnPage = items.length === 1 && filter.page > 1
    if (lastOnPage) setFilter({ ...filter, page: filter.page - 1 })
    else reload()
  }

  return (
    <section aria-labelledby="markers-title">
      <h1 id="markers-title">{tenant ? tenant.name : 'Markers'}</h1>
      <TenantTabs tenantId={tenantId} />

      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter markers">
        <div class="field">
          <label for="filter-category">Category</label>
          <select
            id="filter-category"
            value={filter.category}
            onChange={(e) => changeFilter({ category: e.currentTarget.value as EventCategory | '' })}
          >
            <option value="">All categories</option>
            {Object.keys(CATEGORY_MEANINGS).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-from">From (UTC day)</label>
          <input
            id="filter-from"
            type="date"
            value={filter.from}
            max={filter.to || undefined}
            onChange={(e) => changeFilter({ from: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="filter-to">To (UTC day)</label>
          <input
            id="filter-to"
            type="date"
            value={filter.to}
            min={filter.from || undefined}
            onChange={(e) => changeFilter({ to: e.currentTarget.value })}
          />
        </div>
      </form>

      {notice && (
        <p class="notice" role="status" tabIndex={-1} ref={noticeRef}>
          {notice}
        </p>
      )}
      {canEdit && editing === null && (
        <p>
          <button
            type="button"
            onClick={() => {
              setNotice(null)
              setEditing('new')
            }}
          >
            New marker
          </button>
        </p>
      )}
      {!canEdit && (
        <p class="muted">You can see this tenant's markers; adding or changing them needs the Editor role.</p>
      )}
      {editing !== null && (
        <MarkerForm
          tenantId={tenantId}
          marker={editing === 'new' ? null : editing}
          tags={tags}
          onSaved={saved}
          onCancel={() => setEditing(null)}
        />
      )}

      <ProblemMessage error={error} />
      {loading && !page && (
        <p class="status" role="status">
          Loading markers…
        </p>
      )}
      {page && items.length === 0 && (
        <p class="status">
          {filter.category || filter.from || filter.to ? 'No markers match these filters.' : 'No markers yet.'}
        </p>
      )}
      {page && items.length > 0 && (
        <>
          <ul class="marker-cards" aria-label="Markers" aria-busy={loading}>
            {items.map((marker) => (
              <MarkerCard
                key={`${marker.id}:${marker.updatedAt}`}
                tenantId={tenantId}
                marker={marker}
                canChange={canChange(user, tenantId, marker)}
                onEdit={() => {
                  setNotice(null)
                  setEditing(marker)
                }}
                onDelete={() => setDeleting(marker)}
              />
            ))}
          </ul>
          <Pager
            page={page}
            totalCount={page.totalCount - (page.items.length - items.length)}
            onPage={(n) => setFilter({ ...filter, page: n })}
          />
        </>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete “${deleting.title}”?`}
          confirmLabel="Delete marker"
          onConfirm={async () => {
            try {
              await markersApi.remove(tenantId, deleting.id)
            } catch (err) {
              // Deleted meanwhile (another tab, another person): gone all the same.
              if (err instanceof ApiProblem && err.problem.status === 404) return deleted(deleting, true)
              throw err
            }
            deleted(deleting)
          }}
          onClose={() => setDeleting(null)}
        >
          <p>The marker disappears from every chart at once. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  )
}

function MarkerCard(props: {
  tenantId: string
  marker: MarkerRecord
  canChange: boolean
  onEdit(): void
  onDelete(): void
}) {
  const { marker } = props
  const tag = markerTag(marker)
  const creator = marker.createdBy.name ?? (marker.createdBy.type === 'ApiKey' ? 'an API key' : 'the service')
  return (
    <li class="marker-card">
      <span class="swatch" style={{ background: CATEGORY_COLOURS[marker.category] }} aria-hidden="true" />
      <div class="marker-card-body">
        <h3 class="marker-card-title">{marker.title}</h3>
        <p class="muted">
          {marker.category} · {formatInstant(marker.occurredAt)}
          {tag ? ` · tag ${tag}` : ' · every chart'} · by {creator}
          {marker.createdBy.type === 'ApiKey' ? ' (API key)' : ''}
        </p>
        {marker.description && <p class="marker-description">{marker.description}</p>}
        <Impact tenantId={props.tenantId} marker={marker} />
      </div>
      {props.canChange && (
        <div class="marker-card-actions">
          <button type="button" class="plain" onClick={props.onEdit} aria-label={`Edit ${marker.title}`}>
            Edit
          </button>
          <button type="button" class="danger-outline" onClick={props.onDelete} aria-label={`Delete ${marker.title}`}>
            Delete
          </button>
        </div>
      )}
    </li>
  )
}

/** An amount or percentage with its sign (+, − or none for zero), as a change reads. */
function signed(amount: number, currency?: string): string {
  const options: Intl.NumberFormatOptions = currency
    ? { style: 'currency', currency, signDisplay: 'exceptZero' }
    : { maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: 'exceptZero' }
  try {
    return new Intl.NumberFormat(undefined, options).format(amount)
  } catch {
    return `${amount > 0 ? '+' : ''}${amount.toFixed(currency ? 2 : 1)}${currency ? ` ${currency}` : ''}`
  }
}

/** Settled days after a marker before the API gives a percentage (IMPACT_PERCENT_MIN_DAYS of the anomalies API). */
const PERCENT_MIN_DAYS = 2

function daysText(n: number): string {
  return n === 1 ? '1 day' : `${n} days`
}

/**
 * The cost of the marker's own chart before and after it, like with like: the daily averages over the settled days
 * each side holds (7 before, as many after as have passed), and the change between them, with a percentage once
 * two settled days follow the marker.
 */
function Impact({ tenantId, marker }: { tenantId: string; marker: MarkerRecord }) {
  const [impact, setImpact] = useState<CostImpact | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    markersApi.impact(tenantId, marker.id).then(setImpact, (err: Error) => setFailed(err.message))
  }, [tenantId, marker.id, marker.occurredAt, marker.tagKey, marker.tagValue])

  if (failed) return <p class="impact muted">Cost impact unavailable: {failed}</p>
  if (!impact) return <p class="impact muted">Cost impact loading…</p>
  const { before, after, daysBefore, daysAfter, dailyChange, currency } = impact
  const perDay = (average: number | null) => (average === null ? '—' : `${formatMoney(average, currency)}/day`)
  const percent =
    impact.changePercent !== null
      ? `${signed(impact.changePercent)}%`
      : daysAfter < PERCENT_MIN_DAYS
        ? `percentage after ${PERCENT_MIN_DAYS} settled days`
        : 'no cost before'
  const direction = dailyChange === null || dailyChange === 0 ? 'flat' : dailyChange > 0 ? 'up' : 'down'
  const so = impact.complete ? '' : ' so far'
  return (
    <>
      <dl
        class="impact"
        aria-label={`Cost impact: daily averages of ${daysText(daysAfter)} after against ${daysText(daysBefore)} before`}
      >
        <div>
          <dt>{daysText(daysBefore)} before</dt>
          <dd>{perDay(before.dailyAverage)}</dd>
        </div>
        <div>
          <dt>
            {daysText(daysAfter)} after{so}
          </dt>
          <dd>
            {daysAfter === 0 ? <span class="muted">no settled day yet</span> : `${perDay(after.dailyAverage)} average`}
          </dd>
        </div>
        <div>
          <dt>Change per day</dt>
          <dd class={`change ${direction}`}>
            {dailyChange === null ? (
              <span class="muted">
                {daysAfter === 0 ? 'from the first settled day after the marker' : 'no cost before the marker'}
              </span>
            ) : (
              <>
                {signed(dailyChange, currency)}/day ({percent})
              </>
            )}
          </dd>
        </div>
      </dl>
      {marker.prediction && <Prediction marker={marker} impact={impact} />}
    </>
  )
}

/**
 * What the change was estimated to cost per month against what it is running at: the observed change over the
 * settled days after the marker against as many before it with the same weekdays (the API's `observed`).
 */
function Prediction({ marker, impact }: { marker: MarkerRecord; impact: CostImpact }) {
  const p = marker.prediction!
  const observed = impact.observed
  const over =
    observed.monthlyDelta === null || p.currency !== impact.currency
      ? 'flat'
      : observed.monthlyDelta > p.monthlyDelta
        ? 'up'
        : 'down'
  return (
    <div class="prediction">
      <dl class="impact" aria-label="Estimated against observed monthly cost">
        <div>
          <dt>Estimated ({p.source})</dt>
          <dd>{signed(p.monthlyDelta, p.currency)}/month</dd>
        </div>
        <div>
          <dt>Observed</dt>
          <dd class={`change ${over}`}>
            {observed.monthlyDelta === null ? (
              <span class="muted">from the first settled day after the marker</span>
            ) : (
              `${signed(observed.monthlyDelta, impact.currency)}/month over ${observed.days} settled day${observed.days === 1 ? '' : 's'}`
            )}
          </dd>
        </div>
      </dl>
      {(p.commit || p.pullRequestUrl) && (
        <p class="muted prediction-source">
          {p.commit && <>commit {p.commit.slice(0, 12)}</>}
          {p.commit && p.pullRequestUrl && ' · '}
          {p.pullRequestUrl && (
            <a href={p.pullRequestUrl} target="_blank" rel="noopener noreferrer">
              pull request
            </a>
          )}
        </p>
      )}
    </div>
  )
}

/** `totalCount`: the page's, less the markers deleted here since it was loaded. */
function Pager({ page, totalCount, onPage }: { page: MarkerPage; totalCount: number; onPage(n: number): void }) {
  const count = totalCount === 1 ? '1 marker' : `${totalCount} markers`
  if (page.totalPages <= 1) return <p class="muted pager-count">{count}</p>
  return (
    <nav class="pager" aria-label="Pages of markers">
      <button type="button" class="plain" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
        Previous
      </button>
      <span>
        Page {page.page} of {page.totalPages} ({count})
      </span>
      <button type="button" class="plain" disabled={page.page >= page.totalPages} onClick={() => onPage(page.page + 1)}>
        Next
      </button>
    </nav>
  )
}
