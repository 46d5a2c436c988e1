import { activatedBy, anomalyMarks } from '../../components/chart/anomaly-bands'
import { ProblemMessage } from '../../components/problem'
import { onLinkClick } from '../../router'
import { type Anomaly, scopeLabel } from '../anomalies/api'
import { episodeText, signedMoney } from '../anomalies/incidents'

/**
 * The incidents of the chart's range as links, for keyboards and screen readers: each head with its related
 * anomalies folded inside; hovering or focusing one highlights its episode on the chart.
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
      {anomalyMarks(props.anomalies).map(({ key, incident }) => {
        const { head, members } = incident
        return (
          <li key={key}>
            <a
              href={`/anomalies/${head.id}`}
              onClick={onLinkClick}
              class={props.active === key ? 'active' : undefined}
              {...activatedBy(key, props.onActivate)}
            >
              <span class="finding-title">
                {scopeLabel(head.scope)} {episodeText(head.episode)} · {head.severity} ·{' '}
                {signedMoney(head.episode.totalImpact, head.currency)}
              </span>
              <span class="muted">
                {head.status} · {head.description}
              </span>
            </a>
            {members.length > 0 && (
              <details class="anomaly-members">
                <summary>
                  and {members.length} related {members.length === 1 ? 'anomaly' : 'anomalies'}
                </summary>
                <ul class="anomaly-links">
                  {members.map((a) => (
                    <li key={a.id}>
                      <a href={`/anomalies/${a.id}`} onClick={onLinkClick} {...activatedBy(key, props.onActivate)}>
                        <span>
                          {scopeLabel(a.scope)} · {a.severity} · {signedMoney(a.episode.totalImpact, a.currency)}
                        </span>
                      </a>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        )
      })}
    </ul>
  )
}
