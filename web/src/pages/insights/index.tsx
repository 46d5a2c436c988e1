import { useEffect, useState } from 'preact/hooks'
import { api, type Tenant } from '../../api'
import { Badge } from '../../components/badge'
import '../../components/findings.css'
import { type ListPage, Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { onLinkClick } from '../../router'
import { formatMoney } from '../explorer/markers'
import { CATEGORY_LABELS, INSIGHT_SEVERITIES, type Insight, listInsights, statusLabel } from './api'
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
  const [tenants, setTenants] = useState<Tenant[]>([])
  const [list, setList] = useState<ListPage<Insight> | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    api.tenants().then((page) => setTenants(page.items), setError)
  }, [])

  useEffect(() => {
    let current = true
    setLoading(true)
    setError(null)
    listInsights({ ...filters, page: Number(filters.page) || 1 })
      .then((answer) => current && setList(answer))
      .catch((err) => {
        if (!current) return
        setList(null)
        setError(err)
      })
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [filters.category, filters.severity, filters.tenancyId, filters.includeDismissed, filters.page])

  const filter = (changes: Partial<typeof filters>) => setFilters({ ...changes, page: '1' })
  const tenantName = (id: string) => tenants.find((t) => t.id === id)?.name ?? 'Tenant'
  const filtered = Boolean(filters.category || filters.severity || filters.tenancyId)
  return (
    <section aria-labelledby="insights-title">
      <h1 id="insights-title">Insights</h1>
      <p class="status">Ways to spend less, found in the latest snapshots, largest monthly saving first.</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="insight-tenancy">Tenant</label>
          <select
            id="insight-tenancy"
            value={filters.tenancyId}
            onChange={(e) => filter({ tenancyId: e.currentTarget.value })}
          >
            <option value="">All tenants</option>
            {tenants.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="insight-category">Category</label>
          <select
            id="insight-category"
            value={filters.category}
            onChange={(e) => filter({ category: e.currentTarget.value })}
          >
            <option value="">Any category</option>
            {Object.entries(CATEGORY_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="insight-severity">Severity</label>
          <select
            id="insight-severity"
            value={filters.severity}
            onChange={(e) => filter({ severity: e.currentTarget.value })}
          >
            <option value="">Any severity</option>
            {INSIGHT_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
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

      <ProblemMessage error={error} />
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
                      {CATEGORY_LABELS[i.category]} · {tenantName(i.tenancyId)}
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
