import { Badge } from '../../components/badge'
import '../../components/findings.css'
import { formatMoney } from '../../components/format'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { SelectFilter } from '../../components/select-filter'
import { TenantFilter, useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'
import { CATEGORY_LABELS, INSIGHT_SEVERITIES, listInsights, statusLabel } from './api'
import './insights.css'

/** Cost-reduction insights across the tenancies the user may see, largest saving first, filtered and paged. */
export function InsightsPage() {
  const [filters, setFilters] = useQueryFilters({
    category: '',
    severity: '',
    tenancyId: '',
    includeDismissed: '',
    page: '1',
  })
  const tenants = useTenants()
  const {
    data: list,
    loading,
    error,
  } = useLoad(
    () => listInsights({ ...filters, page: Number(filters.page) || 1 }),
    [filters.category, filters.severity, filters.tenancyId, filters.includeDismissed, filters.page],
  )

  const filter = (changes: Partial<typeof filters>) => setFilters({ ...changes, page: '1' })
  const filtered = Boolean(filters.category || filters.severity || filters.tenancyId)
  return (
    <section aria-labelledby="insights-title">
      <h1 id="insights-title">Insights</h1>
      <p class="status">Ways to spend less, found in the latest snapshots, largest monthly saving first.</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <TenantFilter
          id="insight-tenancy"
          tenants={tenants.tenants}
          value={filters.tenancyId}
          onChange={(tenancyId) => filter({ tenancyId })}
        />
        <SelectFilter
          id="insight-category"
          label="Category"
          value={filters.category}
          anyLabel="Any category"
          options={Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label }))}
          onChange={(category) => filter({ category })}
        />
        <SelectFilter
          id="insight-severity"
          label="Severity"
          value={filters.severity}
          anyLabel="Any severity"
          options={INSIGHT_SEVERITIES}
          onChange={(severity) => filter({ severity })}
        />
        <div class="field checkbox-field">
          <input
            id="insight-dismissed"
            type="checkbox"
            checked={filters.includeDismissed === 'true'}
            onChange={(e) => filter({ includeDismissed: e.currentTarget.checked ? 'true' : '' })}
          />
          <label for="insight-dismissed">Include dismissed and snoozed</label>
        </div>
      </form>

      <ProblemMessage error={error ?? tenants.error} />
      {loading && (
        <p class="status" role="status">
          Loading insights…
        </p>
      )}
      {list && !loading && list.items.length === 0 && (
        <p class="status">
          {filtered || filters.includeDismissed
            ? 'No insight matches these filters.'
            : 'No open insights: nothing to save for now, or no snapshot has been analysed yet.'}
        </p>
      )}
      {list && list.items.length > 0 && (
        <>
          <ul class="finding-list" aria-label="Insights" aria-busy={loading}>
            {list.items.map((i) => (
              <li key={i.id}>
                <a href={`/insights/${i.id}`} onClick={onLinkClick}>
                  <span class="finding-title">{i.title}</span>
                  <span class="finding-amount">
                    {formatMoney(i.estimatedMonthlySavings, i.currency)}
                    <span class="muted">a month</span>
                  </span>
                  <span class="finding-meta">
                    <Badge kind="severity" value={i.severity} />
                    {i.status !== 'Active' && <Badge kind="status" value={statusLabel(i.status)} />}
                    <span class="muted">
                      {CATEGORY_LABELS[i.category]} · {tenants.nameOf(i.tenancyId)}
                      {i.resourceGroupName && ` · ${i.resourceGroupName}`}
                    </span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
          <Pager page={list} noun="insights" onPage={(page) => setFilters({ page: String(page) })} />
        </>
      )}
    </section>
  )
}
