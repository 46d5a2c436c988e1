import { useEffect, useState } from 'preact/hooks'
import { api, type CostSeries, hasRole, type SessionUser, type Tenant } from '../../api'
import { Badge } from '../../components/badge'
import { CostChart } from '../../components/chart/cost-chart'
import { MarkerList } from '../../components/chart/marker-list'
import { formatInstant, formatMoney, utcDay } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { listHref } from '../../components/query-filters'
import { onLinkClick } from '../../router'
import {
  ANOMALY_FEEDBACKS,
  type Anomaly,
  type AnomalyFeedback,
  chartScopeOf,
  getAnomaly,
  incidentAnomalies,
  resourceName,
  scopedDailyCosts,
  scopeLabel,
  setAnomalyFeedback,
  setAnomalyStatus,
} from './api'
import { byBreadth, episodeText, FEEDBACK_LABELS, signedMoney, signedPercent } from './incidents'
import { useSubscriptionNames } from './subscription-names'
import './anomalies.css'

/** Days drawn before an anomaly's episode and after its last day. */
const DAYS_BEFORE = 21
const DAYS_AFTER = 7

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/**
 * One anomaly: its episode's numbers and likely cause, its incident, its scope's chart around the episode, what drove
 * it, the markers near it, its status and a person's feedback.
 */
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

  useSubscriptionNames(anomaly ? [anomaly.tenancyId] : [])
  const label = anomaly ? scopeLabel(anomaly.scope, resource) : 'Anomaly'
  const canChange = anomaly ? hasRole(user, anomaly.tenancyId, 'Editor') : false
  // The likely cause's link highlights its marker on the chart, as the marker list does.
  const [active, setActive] = useState<string | null>(null)
  return (
    <section aria-labelledby="anomaly-title" class="stack">
      <p class="breadcrumb">
        <a href={listHref('/anomalies')} onClick={onLinkClick}>
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
          <Summary anomaly={anomaly} tenant={tenant} onActivate={setActive} />
          <IncidentCard anomaly={anomaly} />
          <StatusActions anomaly={anomaly} canChange={canChange} onChanged={setAnomaly} />
          <FeedbackActions anomaly={anomaly} canChange={canChange} onChanged={setAnomaly} />
          <ScopeChart anomaly={anomaly} label={label} active={active} onActivate={setActive} />
          <Drivers anomaly={anomaly} />
        </>
      )}
    </section>
  )
}

function Summary(props: { anomaly: Anomaly; tenant: Tenant | null; onActivate(id: string | null): void }) {
  const { anomaly, tenant } = props
  const { episode } = anomaly
  const money = (amount: number) => formatMoney(amount, anomaly.currency)
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
      {anomaly.likelyCause && <LikelyCause anomaly={anomaly} onActivate={props.onActivate} />}
      <dl class="facts" aria-label="The episode">
        <div>
          <dt>Episode</dt>
          <dd>
            {episode.start}
            {episode.ongoing ? ' – ongoing' : episode.days > 1 ? ` – ${episode.end ?? episode.lastDay}` : ''}
            <span class="muted">
              {' '}
              ({episode.days} {episode.days === 1 ? 'day' : 'days'}
              {episode.ongoing ? ' so far' : ''})
            </span>
          </dd>
        </div>
        <div>
          <dt>Expected over the episode</dt>
          <dd>{money(episode.expectedCost)}</dd>
        </div>
        <div>
          <dt>Actual over the episode</dt>
          <dd>{money(episode.actualCost)}</dd>
        </div>
        <div>
          <dt>Total impact</dt>
          <dd>
            {signedMoney(episode.totalImpact, anomaly.currency)} ({signedPercent(episode.totalImpactPercent)})
          </dd>
        </div>
        <div>
          <dt>Largest day's impact</dt>
          <dd>{signedMoney(episode.maxImpact, anomaly.currency)}</dd>
        </div>
        <div>
          <dt>First day</dt>
          <dd>
            {money(anomaly.actualCost)} <span class="muted">against {money(anomaly.expectedCost)}</span>
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

/** How long before the episode's first day began the marker was placed, or when on that day. */
function beforeStart(occurredAt: string, start: string): string {
  const hours = Math.floor((Date.parse(`${start}T00:00:00Z`) - Date.parse(occurredAt)) / 3_600_000)
  if (hours < 0) return `on its first day, at ${occurredAt.slice(11, 16)} UTC`
  if (hours < 1) return 'less than an hour before'
  if (hours < 48) return `${hours} ${hours === 1 ? 'hour' : 'hours'} before`
  return `${Math.floor(hours / 24)} days before`
}

/** The Deployment marker that most likely caused the episode, linked to its place in the chart's marker list. */
function LikelyCause({ anomaly, onActivate }: { anomaly: Anomaly; onActivate(id: string | null): void }) {
  const cause = anomaly.likelyCause!
  return (
    <p class="likely-cause">
      <strong>Likely cause:</strong>{' '}
      <a href={`#marker-${cause.id}`} onClick={() => onActivate(cause.id)}>
        {cause.category} “{cause.title}”
      </a>
      , {beforeStart(cause.occurredAt, anomaly.episode.start)}
      <span class="muted"> ({formatInstant(cause.occurredAt)})</span>
    </p>
  )
}

/** The incident the anomaly belongs to: the anomalies of other scopes that the same change explains. */
function IncidentCard({ anomaly }: { anomaly: Anomaly }) {
  const [others, setOthers] = useState<Anomaly[] | null>(null)
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    let current = true
    setError(null)
    // An anomaly alone needs no request to say so.
    if (anomaly.incidentSize <= 1) {
      setOthers([])
      return
    }
    setOthers(null)
    incidentAnomalies(anomaly.incidentId).then(
      (found) => current && setOthers(found.filter((a) => a.id !== anomaly.id).sort(byBreadth)),
      (err) => current && setError(err),
    )
    return () => {
      current = false
    }
  }, [anomaly.id, anomaly.incidentId, anomaly.incidentSize])

  const head = others?.find((a) => a.id === anomaly.incidentId)
  return (
    <section class="card" aria-labelledby="incident-title">
      <h2 id="incident-title" class="card-title">
        Incident
      </h2>
      <ProblemMessage error={error} />
      {!others && !error && (
        <p class="status" role="status">
          Loading the incident…
        </p>
      )}
      {others && others.length === 0 && <p class="status">No other anomaly is part of this change.</p>}
      {others && others.length > 0 && (
        <>
          <p class="muted">
            {head
              ? `Part of an incident of ${others.length + 1} anomalies, headed by ${scopeLabel(head.scope)}.`
              : `This anomaly heads an incident of ${others.length + 1} anomalies: one change, seen on each scope it moved.`}
          </p>
          <ul class="incident-list" aria-label="Other anomalies of the incident">
            {others.map((a) => (
              <li key={a.id}>
                <a href={`/anomalies/${a.id}`} onClick={onLinkClick}>
                  {scopeLabel(a.scope)} {episodeText(a.episode)}
                </a>{' '}
                <span class="muted">
                  {a.severity} · {signedMoney(a.episode.totalImpact, a.currency)} ·{' '}
                  {signedPercent(a.episode.totalImpactPercent)}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
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
          ? `Set to ${anomaly.status} on ${formatInstant(anomaly.statusChangedAt)} by ${actorName(anomaly.statusChangedBy)}.`
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

function actorName(by: Anomaly['statusChangedBy']): string {
  if (!by) return 'the service'
  const name = by.name ?? 'someone'
  return by.type === 'ApiKey' ? `API key ${name}` : name
}

const FEEDBACK_MEANINGS: Record<AnomalyFeedback, string> = {
  Expected: 'a planned change: its new level becomes the normal at once',
  NotAnAnomaly: 'a false alarm',
  Confirmed: 'a real anomaly',
}

/** A person's judgement of the anomaly: Editors give or clear it, everyone sees it and who gave it. */
function FeedbackActions(props: { anomaly: Anomaly; canChange: boolean; onChanged(anomaly: Anomaly): void }) {
  const { anomaly } = props
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState<string | null>(null)

  const give = async (feedback: AnomalyFeedback | null) => {
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      props.onChanged(await setAnomalyFeedback(anomaly.id, feedback))
      setDone(feedback ? `Feedback saved: ${FEEDBACK_LABELS[feedback]}.` : 'Feedback cleared.')
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <section class="card" aria-labelledby="feedback-title">
      <h2 id="feedback-title" class="card-title">
        Feedback: {anomaly.feedback ? FEEDBACK_LABELS[anomaly.feedback] : 'none yet'}
      </h2>
      <p class="muted">
        {anomaly.feedback && anomaly.feedbackAt
          ? `${FEEDBACK_LABELS[anomaly.feedback]} (${FEEDBACK_MEANINGS[anomaly.feedback]}), said on ${formatInstant(anomaly.feedbackAt)} by ${actorName(anomaly.feedbackBy)}.`
          : 'Nobody has said yet whether this was expected, a false alarm or a real anomaly.'}
      </p>
      {props.canChange ? (
        <div class="detail-actions feedback-actions">
          {ANOMALY_FEEDBACKS.map((feedback) => (
            <button
              key={feedback}
              type="button"
              class={anomaly.feedback === feedback ? undefined : 'plain'}
              aria-pressed={anomaly.feedback === feedback}
              disabled={busy}
              title={FEEDBACK_MEANINGS[feedback]}
              onClick={() => give(anomaly.feedback === feedback ? null : feedback)}
            >
              {feedback === 'Expected' ? 'Expected — a planned change' : FEEDBACK_LABELS[feedback]}
            </button>
          ))}
        </div>
      ) : (
        <p class="muted">Giving feedback needs the Editor role on this tenant.</p>
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

function ScopeChart(props: {
  anomaly: Anomaly
  label: string
  active: string | null
  onActivate(id: string | null): void
}) {
  const { anomaly, label, active } = props
  const [series, setSeries] = useState<CostSeries | null>(null)
  const [error, setError] = useState<unknown>(null)
  const from = shiftDay(anomaly.episode.start, -DAYS_BEFORE)
  const today = utcDay(0)
  const after = shiftDay(anomaly.episode.lastDay, DAYS_AFTER)
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
      {series && <CostChart series={series} anomalies={[anomaly]} active={active} onActivate={props.onActivate} />}
      <h3>Event markers near the first day</h3>
      <MarkerList markers={anomaly.relatedEvents} active={active} onActivate={props.onActivate} />
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
