import { type Anomaly, type AnomalySeverity, scopeLabel } from '../../pages/anomalies/api'
import './anomalies.css'

/** A day of the chart with its anomalies, the broadest scope first (the one the tenant's total shows). */
export interface AnomalyDay {
  /** `anomaly:YYYY-MM-DD`: the chart's `active` key, never a marker's id. */
  key: string
  date: string
  severity: AnomalySeverity
  anomalies: Anomaly[]
  /** The accessible name of the day's link. */
  label: string
}

const BREADTH = ['Tenant', 'Subscription', 'ResourceGroup', 'Service', 'Resource']
const RANK: Record<AnomalySeverity, number> = { High: 3, Medium: 2, Low: 1 }

/** Band colours by the day's highest severity: light enough for the lines to read over them. */
export const SEVERITY_BANDS: Record<AnomalySeverity, { fill: string; active: string }> = {
  High: { fill: 'rgba(225, 29, 72, 0.12)', active: 'rgba(225, 29, 72, 0.28)' },
  Medium: { fill: 'rgba(217, 119, 6, 0.13)', active: 'rgba(217, 119, 6, 0.3)' },
  Low: { fill: 'rgba(37, 99, 235, 0.1)', active: 'rgba(37, 99, 235, 0.25)' },
}

export function anomalyDays(anomalies: Anomaly[]): AnomalyDay[] {
  const byDate = new Map<string, Anomaly[]>()
  for (const a of anomalies) byDate.set(a.dateRaised, [...(byDate.get(a.dateRaised) ?? []), a])
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, list]) => {
      const sorted = [...list].sort(
        (a, b) => BREADTH.indexOf(a.scope.kind) - BREADTH.indexOf(b.scope.kind) || RANK[b.severity] - RANK[a.severity],
      )
      const severity = sorted.reduce<AnomalySeverity>((s, a) => (RANK[a.severity] > RANK[s] ? a.severity : s), 'Low')
      const first = sorted[0]!
      const more = sorted.length > 1 ? ` (${sorted.length} anomalies that day)` : ''
      return {
        key: `anomaly:${date}`,
        date,
        severity,
        anomalies: sorted,
        label: `${first.severity} anomaly on ${date}, ${scopeLabel(first.scope)}${more}: ${first.description}`,
      }
    })
}
