import { Badge } from '../../components/badge'
import { formatMoney } from '../../components/format'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { SelectFilter } from '../../components/select-filter'
import { TenantFilter, useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'
import { ANOMALY_SEVERITIES, ANOMALY_STATUSES, listAnomalies, scopeLabel } from './api'

/** The organisation's anomalies across the tenancies the user may see, newest first, filtered and paged. */
export function AnomaliesPage() {
  const [filters, setFilters] = useQueryFilters({ tenancyId: '', status: '', severity: '', dateRaised: '', page: '1' })
  const tenants = useTenants()
  const {
    data: list,
    loading,
    error,
  } = useLoad(
    () => listAnomalies({ ...filters, page: Number(filters.page) || 1 }),
    [filters.tenancyId, filters.status, filters.severity, filters.dateRaised, filters.page],
  )

  const filter = (changes: Partial<typeof filters>) => setFilters({ ...changes, page: '1' })
  const filtered = Boolean(filters.tenancyId || filters.status || filters.severity || filters.dateRaised)
  return (
    <section aria-labelledby="anomalies-title">
      <h1 id="anomalies-title">Anomalies</h1>
      <p class="status">Days whose cost departed from what the weeks before it led to expect.</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <TenantFilter
          id="anomaly-tenancy"
          tenants={tenants.tenants}
          value={filters.tenancyId}
          onChange={(tenancyId) => filter({ tenancyId })}
        />
        <SelectFilter
          id="anomaly-status"
          label="Status"
          value={filters.status}
          anyLabel="Any status"
          options={ANOMALY_STATUSES}
          onChange={(status) => filter({ status })}
        />
        <SelectFilter
          id="anomaly-severity"
          label="Severity"
          value={filters.severity}
          anyLabel="Any severity"
          options={ANOMALY_SEVERITIES}
          onChange={(severity) => filter({ severity })}
        />
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

      <ProblemMessage error={error ?? tenants.error} />
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
                    <span class="muted">{tenants.nameOf(a.tenancyId)}</span>
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
