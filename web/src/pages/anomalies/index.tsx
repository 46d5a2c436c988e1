import { useState } from 'preact/hooks'
import { Badge } from '../../components/badge'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { SelectFilter } from '../../components/select-filter'
import { TenantFilter, useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'
import { ANOMALY_SEVERITIES, ANOMALY_STATUSES, type Anomaly, incidentAnomalies, listAnomalies, scopeLabel } from './api'
import { byBreadth, episodeText, FEEDBACK_LABELS, signedMoney, signedPercent } from './incidents'
import { useSubscriptionNames } from './subscription-names'
import './anomalies.css'

/**
 * The organisation's anomalies across the tenancies the user may see, newest first, filtered and paged: one item
 * per incident, its other anomalies inside it.
 */
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

  useSubscriptionNames(list?.items.map((a) => a.tenancyId) ?? [])

  const filter = (changes: Partial<typeof filters>) => setFilters({ ...changes, page: '1' })
  const filtered = Boolean(filters.tenancyId || filters.status || filters.severity || filters.dateRaised)
  return (
    <section aria-labelledby="anomalies-title">
      <h1 id="anomalies-title">Anomalies</h1>
      <p class="status">
        Days whose cost departed from what the weeks before it led to expect, one item per change: the anomalies it
        caused on other scopes are inside it.
      </p>
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
            {list.items.map((head) => (
              <IncidentItem key={head.id} head={head} tenantName={tenants.nameOf(head.tenancyId)} />
            ))}
          </ul>
          <Pager page={list} noun="incidents" onPage={(page) => setFilters({ page: String(page) })} />
        </>
      )}
    </section>
  )
}

/**
 * One incident: its head's episode, impact, severity, status and feedback; its other anomalies folded inside,
 * loaded when first unfolded.
 */
function IncidentItem({ head, tenantName }: { head: Anomaly; tenantName: string }) {
  const others = head.incidentSize - 1
  const [members, setMembers] = useState<Anomaly[] | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [open, setOpen] = useState(false)
  const load = (opened: boolean) => {
    setOpen(opened)
    if (!opened || members) return
    setError(null)
    incidentAnomalies(head.incidentId).then(
      (found) => setMembers(found.filter((a) => a.id !== head.id).sort(byBreadth)),
      setError,
    )
  }
  return (
    <li>
      <AnomalyLink anomaly={head} tenantName={tenantName} />
      {others > 0 && (
        <details class="incident-members" onToggle={(e) => load(e.currentTarget.open)}>
          <summary>
            and {others} related {others === 1 ? 'anomaly' : 'anomalies'}
          </summary>
          <ProblemMessage error={error} />
          {open && !members && !error && (
            <p class="status" role="status">
              Loading the incident…
            </p>
          )}
          {members && (
            <ul aria-label={`Related to ${scopeLabel(head.scope)} ${episodeText(head.episode)}`}>
              {members.map((m) => (
                <li key={m.id}>
                  <AnomalyLink anomaly={m} />
                </li>
              ))}
            </ul>
          )}
        </details>
      )}
    </li>
  )
}

function AnomalyLink({ anomaly: a, tenantName }: { anomaly: Anomaly; tenantName?: string }) {
  return (
    <a href={`/anomalies/${a.id}`} onClick={onLinkClick}>
      <span class="finding-title">
        {scopeLabel(a.scope)} {episodeText(a.episode)}
      </span>
      <span class="finding-amount">
        {signedMoney(a.episode.totalImpact, a.currency)}
        <span class="muted">{signedPercent(a.episode.totalImpactPercent)}</span>
      </span>
      <span class="finding-meta">
        <Badge kind="severity" value={a.severity} />
        <Badge kind="status" value={a.status} />
        {a.feedback && <span class="badge feedback-given">Feedback: {FEEDBACK_LABELS[a.feedback]}</span>}
        {tenantName && <span class="muted">{tenantName}</span>}
      </span>
      {tenantName && <span class="muted finding-description">{a.description}</span>}
    </a>
  )
}
