import { useEffect, useState } from 'preact/hooks'
import { api, type CostSeries, hasRole, type SessionUser, type Tenant } from '../../api'
import { Badge } from '../../components/badge'
import { CostChart } from '../../components/chart/cost-chart'
import { MarkerList } from '../../components/chart/marker-list'
import { formatInstant, formatMoney, utcDay } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { onLinkClick } from '../../router'
import {
  type Anomaly,
  chartScopeOf,
  getAnomaly,
  resourceName,
  scopedDailyCosts,
  scopeLabel,
  setAnomalyStatus,
} from './api'

/** Days drawn before and after the day an anomaly was raised. */
const DAYS_BEFORE = 21
const DAYS_AFTER = 7

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** One anomaly: its numbers, its scope's chart around the day, what drove it, the markers near it, its status. */
export function AnomalyPage({ anomalyId, user }: { anomalyId: string; user: SessionUser }) {
  const [anomaly, setAnomaly] = useState<Anomaly | null>(null)
  const [tenant, setTenant] = useState<Tenant | null>(null)
  const [resource, setResource] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    let current = true
    setAnomaly(null)
    setResource(null)
    setError(null)
    getAnomaly(anomalyId).then(
      (found) => {
        if (!current) return
        setAnomaly(found)
        // The tenant's and the resource's names only make the page friendlier: without them it still says it all.
        api.tenant(found.tenancyId).then(
          (t) => current && setTenant(t),
          () => {},
        )
        if (found.scope.resourceId) {
          resourceName(found.tenancyId, found.scope.resourceId).then(
            (name) => current && setResource(name),
            () => {},
          )
        }
      },
      (err) => current && setError(err),
    )
    return () => {
      current = false
    }
  }, [anomalyId])

  const label = anomaly ? scopeLabel(anomaly.scope, resource) : 'Anomaly'
  return (
    <section aria-labelledby="anomaly-title" class="stack">
      <p class="breadcrumb">
        <a href="/anomalies" onClick={onLinkClick}>
          ← All anomalies
        </a>
      </p>
      <h1 id="anomaly-title">{anomaly ? `${label} on ${anomaly.dateRaised}` : 'Anomaly'}</h1>
      <ProblemMessage error={error} />
      {!anomaly && !error && (
        <p class="status" role="status">
          Loading the anomaly…
        </p>
      )}
      {anomaly && (
        <>
          <Summary anomaly={anomaly} tenant={tenant} />
          <StatusActions
            anomaly={anomaly}
            canChange={hasRole(user, anomaly.tenancyId, 'Editor')}
            onChanged={setAnomaly}
          />
          <ScopeChart anomaly={anomaly} label={label} />
          <Drivers anomaly={anomaly} />
        </>
      )}
    </section>
  )
}

function Summary({ anomaly, tenant }: { anomaly: Anomaly; tenant: Tenant | null }) {
  const money = (amount: number) => formatMoney(amount, anomaly.currency)
  const sign = anomaly.impact >= 0 ? '+' : ''
  return (
    <div class="card">
      <p class="finding-meta">
        <Badge kind="severity" value={anomaly.severity} />
        <Badge kind="status" value={anomaly.status} />
        {tenant && (
          <a href={`/tenants/${encodeURIComponent(tenant.id)}`} onClick={onLinkClick}>
            {tenant.name}
          </a>
        )}
      </p>
      <p>{anomaly.description}</p>
      <dl class="facts">
        <div>
          <dt>Expected cost</dt>
          <dd>{money(anomaly.expectedCost)}</dd>
        </div>
        <div>
          <dt>Actual cost</dt>
          <dd>{money(anomaly.actualCost)}</dd>
        </div>
        <div>
          <dt>Difference</dt>
          <dd>
            {sign}
            {money(anomaly.impact)} ({sign}
            {anomaly.impactPercent.toFixed(1)}%)
          </dd>
        </div>
        <div>
          <dt>Detected</dt>
          <dd>{formatInstant(anomaly.detectedAt)}</dd>
        </div>
      </dl>
    </div>
  )
}

function StatusActions(props: { anomaly: Anomaly; canChange: boolean; onChanged(anomaly: Anomaly): void }) {
  const { anomaly } = props
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState<string | null>(null)

  const change = async (status: 'Acknowledged' | 'Resolved') => {
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      props.onChanged(await setAnomalyStatus(anomaly.id, status))
      setDone(`Marked ${status}.`)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  const button = (status: 'Acknowledged' | 'Resolved', text: string) => (
    <button type="button" disabled={busy || anomaly.status === status} onClick={() => change(status)}>
      {text}
    </button>
  )
  return (
    <section class="card" aria-labelledby="status-title">
      <h2 id="status-title" class="card-title">
        Status: {anomaly.status}
      </h2>
      <p class="muted">
        {anomaly.statusChangedAt
          ? `Set to ${anomaly.status} on ${formatInstant(anomaly.statusChangedAt)} by ${actorName(anomaly)}.`
          : 'Nobody has acknowledged or resolved it yet.'}
      </p>
      {props.canChange ? (
        <div class="detail-actions">
          {button('Acknowledged', 'Acknowledge')}
          {button('Resolved', 'Resolve')}
        </div>
      ) : (
        <p class="muted">Changing the status needs the Editor role on this tenant.</p>
      )}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      <ProblemMessage error={error} />
    </section>
  )
}

function actorName(anomaly: Anomaly): string {
  const by = anomaly.statusChangedBy
  if (!by) return 'the service'
  const name = by.name ?? 'someone'
  return by.type === 'ApiKey' ? `API key ${name}` : name
}

function ScopeChart({ anomaly, label }: { anomaly: Anomaly; label: string }) {
  const [series, setSeries] = useState<CostSeries | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [active, setActive] = useState<string | null>(null)
  const from = shiftDay(anomaly.dateRaised, -DAYS_BEFORE)
  const today = utcDay(0)
  const after = shiftDay(anomaly.dateRaised, DAYS_AFTER)
  const to = after < today ? after : today

  useEffect(() => {
    let current = true
    setError(null)
    scopedDailyCosts(anomaly.tenancyId, { ...chartScopeOf(anomaly.scope), from, to }).then(
      (answer) => current && setSeries(answer),
      (err) => current && setError(err),
    )
    return () => {
      current = false
    }
  }, [anomaly.id, from, to])

  return (
    <section class="card" aria-labelledby="chart-title">
      <h2 id="chart-title" class="card-title">
        Daily cost of {label.charAt(0).toLowerCase() + label.slice(1)}
      </h2>
      <p class="muted">
        {from} to {to}
        {anomaly.scope.kind === 'Service' && ', the tenant by service'}
      </p>
      <ProblemMessage error={error} />
      {!series && !error && (
        <p class="status" role="status">
          Loading costs…
        </p>
      )}
      {series && <CostChart series={series} anomalies={[anomaly]} active={active} onActivate={setActive} />}
      <h3>Event markers near the day</h3>
      <MarkerList markers={anomaly.relatedEvents} active={active} onActivate={setActive} />
    </section>
  )
}

function Drivers({ anomaly }: { anomaly: Anomaly }) {
  const money = (amount: number) => formatMoney(amount, anomaly.currency)
  return (
    <section class="card" aria-labelledby="drivers-title">
      <h2 id="drivers-title" class="card-title">
        What drove it
      </h2>
      {anomaly.drivers.length === 0 ? (
        <p class="status">
          {anomaly.scope.kind === 'Resource' || anomaly.scope.kind === 'Service'
            ? 'A resource or a service has no parts to break it down into.'
            : 'No part of this scope moved the same way on that day.'}
        </p>
      ) : (
        <table class="data-table">
          <caption class="visually-hidden">Parts of the scope that moved the same way on the day</caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col" class="money">
                Expected
              </th>
              <th scope="col" class="money">
                Actual
              </th>
              <th scope="col" class="money">
                Change
              </th>
              <th scope="col" class="money">
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {anomaly.drivers.map((d) => (
              <tr key={d.label}>
                <th scope="row">{d.label}</th>
                <td class="money" data-label="Expected">
                  {money(d.expectedCost)}
                </td>
                <td class="money" data-label="Actual">
                  {money(d.actualCost)}
                </td>
                <td class="money" data-label="Change">
                  {d.change >= 0 ? '+' : ''}
                  {money(d.change)}
                </td>
                <td class="money" data-label="Share">
                  {Math.round(d.share * 100)}%
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
