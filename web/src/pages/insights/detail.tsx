import { useEffect, useState } from 'preact/hooks'
import { api, hasRole, type SessionUser, type Tenant } from '../../api'
import { Badge } from '../../components/badge'
import { FieldError, fieldMessages, withoutFields } from '../../components/field-errors'
import { listHref } from '../../components/query-filters'
import '../../components/findings.css'
import { formatInstant, formatMoney } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { onLinkClick } from '../../router'
import {
  actOnInsight,
  CATEGORY_LABELS,
  DISMISS_REASONS,
  getInsight,
  type Insight,
  type InsightAction,
  statusLabel,
} from './api'
import './insights.css'

/** One insight: what was found on which resource, what to do and what it saves, and what people did about it. */
export function InsightPage({ insightId, user }: { insightId: string; user: SessionUser }) {
  const [insight, setInsight] = useState<Insight | null>(null)
  const [tenant, setTenant] = useState<Tenant | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    let current = true
    setInsight(null)
    setError(null)
    getInsight(insightId).then(
      (found) => {
        if (!current) return
        setInsight(found)
        // The tenant's name links to its costs; without it the page still says it all.
        api.tenant(found.tenancyId).then(
          (t) => current && setTenant(t),
          () => {},
        )
      },
      (err) => current && setError(err),
    )
    return () => {
      current = false
    }
  }, [insightId])

  return (
    <section aria-labelledby="insight-title" class="stack">
      <p class="breadcrumb">
        <a href={listHref('/insights')} onClick={onLinkClick}>
          ← All insights
        </a>
      </p>
      <h1 id="insight-title">{insight ? insight.title : 'Insight'}</h1>
      <ProblemMessage error={error} />
      {!insight && !error && (
        <p class="status" role="status">
          Loading the insight…
        </p>
      )}
      {insight && (
        <>
          <Finding insight={insight} tenant={tenant} />
          <Actions insight={insight} canAct={hasRole(user, insight.tenancyId, 'Editor')} onChanged={setInsight} />
        </>
      )}
    </section>
  )
}

function Finding({ insight, tenant }: { insight: Insight; tenant: Tenant | null }) {
  return (
    <div class="card">
      <p class="finding-meta">
        <Badge kind="severity" value={insight.severity} />
        <Badge kind="status" value={statusLabel(insight.status)} />
        <span class="muted">{CATEGORY_LABELS[insight.category]}</span>
      </p>
      <p>{insight.description}</p>
      <h2 class="card-title">What to do</h2>
      <p>{insight.recommendation}</p>
      <dl class="facts">
        <div>
          <dt>Estimated saving</dt>
          <dd>{formatMoney(insight.estimatedMonthlySavings, insight.currency)} a month</dd>
        </div>
        <div>
          <dt>Resource</dt>
          <dd>{insight.resourceName ?? 'Not tied to one resource'}</dd>
        </div>
        <div>
          <dt>Resource group</dt>
          <dd>{insight.resourceGroupName ?? '–'}</dd>
        </div>
        <div>
          <dt>Subscription</dt>
          <dd>{insight.subscriptionId ?? '–'}</dd>
        </div>
        <div>
          <dt>Tenant</dt>
          <dd>
            {tenant ? (
              <a href={`/tenants/${encodeURIComponent(tenant.id)}`} onClick={onLinkClick}>
                {tenant.name}
              </a>
            ) : (
              '–'
            )}
          </dd>
        </div>
        <div>
          <dt>Detected</dt>
          <dd>{formatInstant(insight.detectedAt)}</dd>
        </div>
      </dl>
    </div>
  )
}

function lastActionText(insight: Insight): string {
  const last = insight.lastAction
  if (!last) return 'Nobody has acted on it yet.'
  const by = last.by.type === 'ApiKey' ? `API key ${last.by.name ?? ''}` : (last.by.name ?? 'someone')
  const what =
    last.action === 'Snoozed'
      ? `Snoozed for ${last.snoozeDays} day${last.snoozeDays === 1 ? '' : 's'}`
      : `Marked ${statusLabel(last.action).toLowerCase()}`
  return `${what} by ${by} on ${formatInstant(last.at)}.`
}

function Actions(props: { insight: Insight; canAct: boolean; onChanged(insight: Insight): void }) {
  const { insight } = props
  const [reason, setReason] = useState<InsightAction>('NotRelevant')
  const [snoozeDays, setSnoozeDays] = useState('14')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState<string | null>(null)

  const act = async (action: InsightAction, event?: Event) => {
    event?.preventDefault()
    // The days the field shows when the form is sent, not the last ones an input event reported: a value set
    // without one (an autofill, an assistive tool) would otherwise send the earlier number.
    const form = event?.currentTarget instanceof HTMLFormElement ? event.currentTarget : null
    const shown = form ? new FormData(form).get('snoozeDays') : null
    const days = typeof shown === 'string' ? shown : snoozeDays
    if (days !== snoozeDays) setSnoozeDays(days)
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      const changed = await actOnInsight(insight.id, action, days)
      props.onChanged(changed)
      setDone(
        action === 'Snoozed' && changed.snoozedUntil
          ? `Snoozed until ${formatInstant(changed.snoozedUntil)}.`
          : `Marked ${statusLabel(action).toLowerCase()}.`,
      )
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  const snoozeErrors = fieldMessages(error, 'snoozeDays')
  return (
    <section class="card" aria-labelledby="insight-status-title">
      <h2 id="insight-status-title" class="card-title">
        Status: {statusLabel(insight.status)}
      </h2>
      <p class="muted">
        {lastActionText(insight)}
        {insight.snoozedUntil && ` It comes back on ${formatInstant(insight.snoozedUntil)}.`}
      </p>
      {!props.canAct ? (
        <p class="muted">Acting on an insight needs the Editor role on this tenant.</p>
      ) : (
        <div class="insight-actions">
          <div>
            <h3>Done it?</h3>
            <button type="button" disabled={busy} onClick={() => act('Implemented')}>
              Mark implemented
            </button>
          </div>
          <form onSubmit={(e) => act(reason, e)} aria-labelledby="dismiss-title">
            <h3 id="dismiss-title" class="visually-hidden">
              Dismiss
            </h3>
            <div class="field">
              <label for="dismiss-reason">Dismiss because</label>
              <select
                id="dismiss-reason"
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value as InsightAction)}
              >
                {DISMISS_REASONS.map((r) => (
                  <option key={r.action} value={r.action}>
                    {r.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" class="plain" disabled={busy}>
              Dismiss
            </button>
          </form>
          <form onSubmit={(e) => act('Snoozed', e)} noValidate aria-labelledby="snooze-title">
            <h3 id="snooze-title" class="visually-hidden">
              Snooze
            </h3>
            <div class="field">
              <label for="snooze-days">Snooze for (days, 1 to 365)</label>
              <input
                id="snooze-days"
                name="snoozeDays"
                type="number"
                inputMode="numeric"
                min={1}
                max={365}
                step={1}
                value={snoozeDays}
                aria-invalid={snoozeErrors.length > 0}
                aria-describedby={snoozeErrors.length > 0 ? 'snooze-days-error' : undefined}
                onInput={(e) => setSnoozeDays(e.currentTarget.value)}
                onChange={(e) => setSnoozeDays(e.currentTarget.value)}
              />
            </div>
            <button type="submit" class="plain" disabled={busy}>
              Snooze
            </button>
          </form>
          <FieldError id="snooze-days-error" label="The number of days" messages={snoozeErrors} />
        </div>
      )}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      <ProblemMessage error={withoutFields(error, ['snoozeDays'])} />
    </section>
  )
}
