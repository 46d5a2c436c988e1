import { useEffect, useState } from 'preact/hooks'
import { api, type Tenant } from '../../api'
import { Badge } from '../../components/badge'
import { type ListPage, Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { onLinkClick } from '../../router'
import { formatMoney } from '../explorer/markers'
import { ANOMALY_SEVERITIES, ANOMALY_STATUSES, type Anomaly, listAnomalies, scopeLabel } from './api'

/** The organisation's anomalies across the tenancies the user may see, newest first, filtered and paged. */
export function AnomaliesPage() {
  const [filters, setFilters] = useQueryFilters({ tenancyId: '', status: '', severity: '', dateRaised: '', page: '1' })
  const [tenants, setTenants] = useState<Tenant[]>([])
  const [list, setList] = useState<ListPage<Anomaly> | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    api.tenants().then((page) => setTenants(page.items), setError)
  }, [])

  useEffect(() => {
    let current = true
    setLoading(true)
    setError(null)
    listAnomalies({ ...filters, page: Number(filters.page) || 1 })
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
  }, [filters.tenancyId, filters.status, filters.severity, filters.dateRaised, filters.page])

  const filter = (changes: Partial<typeof filters>) => setFilters({ ...changes, page: '1' })
  const tenantName = (id: string) => tenants.find((t) => t.id === id)?.name ?? 'Tenant'
  const filtered = Boolean(filters.tenancyId || filters.status || filters.severity || filters.dateRaised)
  return (
    <section aria-labelledby="anomalies-title">
      <h1 id="anomalies-title">Anomalies</h1>
      <p class="status">Days whose cost departed from what the weeks before it led to expect.</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="anomaly-tenancy">Tenant</label>
          <select
            id="anomaly-tenancy"
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
          <label for="anomaly-status">Status</label>
          <select
            id="anomaly-status"
            value={filters.status}
            onChange={(e) => filter({ status: e.currentTarget.value })}
          >
            <option value="">Any status</option>
            {ANOMALY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="anomaly-severity">Severity</label>
          <select
            id="anomaly-severity"
            value={filters.severity}
            onChange={(e) => filter({ severity: e.currentTarget.value })}
          >
            <option value="">Any severity</option>
            {ANOMALY_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="anomaly-date">Raised on</label>
          <input
            id="anomaly-date"
            type="date"
            value={filters.dateRaised}
            onChange={(e) => filter({ dateRaised: e.currentTarget.value })}
          />
        </div>
      </form>

      <ProblemMessage error={error} />
      {loading && (
        <p class="status" role="status">
          Loading anomalies…
        </p>
      )}
      {list && !loading && list.items.length === 0 && (
        <p class="status">
          {filtered
            ? 'No anomaly matches these filters.'
            : 'No anomalies yet: they appear once a snapshot has collected enough history to judge.'}
        </p>
      )}
      {list && list.items.length > 0 && (
        <>
          <ul class="finding-list" aria-label="Anomalies" aria-busy={loading}>
            {list.items.map((a) => (
              <li key={a.id}>
                <a href={`/anomalies/${a.id}`} onClick={onLinkClick}>
                  <span class="finding-title">
                    {scopeLabel(a.scope)} on {a.dateRaised}
                  </span>
                  <span class="finding-amount">
                    {a.impact >= 0 ? '+' : ''}
                    {formatMoney(a.impact, a.currency)}
                    <span class="muted">
                      {a.impactPercent >= 0 ? '+' : ''}
                      {a.impactPercent.toFixed(0)}%
                    </span>
                  </span>
                  <span class="finding-meta">
                    <Badge kind="severity" value={a.severity} />
                    <Badge kind="status" value={a.status} />
                    <span class="muted">{tenantName(a.tenancyId)}</span>
                  </span>
                  <span class="muted finding-description">{a.description}</span>
                </a>
              </li>
            ))}
          </ul>
          <Pager page={list} noun="anomalies" onPage={(page) => setFilters({ page: String(page) })} />
        </>
      )}
    </section>
  )
}
