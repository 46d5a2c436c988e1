import { anomalyDays } from '../../components/chart/anomaly-bands'
import { formatMoney } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { onLinkClick } from '../../router'
import type { Anomaly } from '../anomalies/api'

/**
 * The anomalies of the chart's range as links, for keyboards and screen readers; hovering or focusing one
 * highlights its day on the chart.
 */
export function AnomalyList(props: {
  anomalies: Anomaly[]
  error: unknown
  active: string | null
  onActivate(key: string | null): void
}) {
  if (props.error) return <ProblemMessage error={props.error} />
  if (props.anomalies.length === 0) return <p class="status">No anomalies in this range.</p>
  return (
    <ul class="anomaly-links" aria-label="Anomalies">
      {anomalyDays(props.anomalies).flatMap((day) =>
        day.anomalies.map((a) => (
          <li key={a.id}>
            <a
              href={`/anomalies/${a.id}`}
              onClick={onLinkClick}
              class={props.active === day.key ? 'active' : undefined}
              onFocus={() => props.onActivate(day.key)}
              onBlur={() => props.onActivate(null)}
              onMouseEnter={() => props.onActivate(day.key)}
              onMouseLeave={() => props.onActivate(null)}
            >
              <span class="finding-title">
                {a.dateRaised} · {a.severity} · {a.impact >= 0 ? '+' : ''}
                {formatMoney(a.impact, a.currency)}
              </span>
              <span class="muted">
                {a.status} · {a.description}
              </span>
            </a>
          </li>
        )),
      )}
    </ul>
  )
}
