import { formatMoney } from '../../components/format'
import type { Anomaly, AnomalyFeedback, AnomalySeverity } from './api'

/** The anomalies one root cause explains, as one item: its head and the others inside it. */
export interface Incident {
  id: string
  head: Anomaly
  /** The incident's other anomalies among those at hand, broadest scope first. */
  members: Anomaly[]
  /** The first and the last day of its episodes. */
  start: string
  lastDay: string
}

const BREADTH = ['Tenant', 'Subscription', 'ResourceGroup', 'Service', 'Resource']
const RANK: Record<AnomalySeverity, number> = { High: 3, Medium: 2, Low: 1 }

/** Broadest scope first, then the highest severity: the order an incident's anomalies are listed in. */
export const byBreadth = (a: Anomaly, b: Anomaly) =>
  BREADTH.indexOf(a.scope.kind) - BREADTH.indexOf(b.scope.kind) || RANK[b.severity] - RANK[a.severity]

/**
 * The anomalies grouped by `incidentId`, in the order their first anomaly comes. The head is the anomaly the
 * incident is named after (its id is the incidentId); when that one is not at hand (a chart of a narrower scope),
 * the broadest scope at hand heads it.
 */
export function groupIncidents(anomalies: Anomaly[]): Incident[] {
  const byIncident = new Map<string, Anomaly[]>()
  for (const a of anomalies) byIncident.set(a.incidentId, [...(byIncident.get(a.incidentId) ?? []), a])
  return [...byIncident.entries()].map(([id, list]) => {
    const sorted = [...list].sort(byBreadth)
    const head = sorted.find((a) => a.id === id) ?? sorted[0]!
    return {
      id,
      head,
      members: sorted.filter((a) => a !== head),
      start: sorted.reduce((day, a) => (a.episode.start < day ? a.episode.start : day), head.episode.start),
      lastDay: sorted.reduce((day, a) => (a.episode.lastDay > day ? a.episode.lastDay : day), head.episode.lastDay),
    }
  })
}

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`)

/** "on 2026-03-04", "from 2026-03-04 to 2026-03-06 (3 days)" or "from 2026-03-04, ongoing (3 days so far)". */
export function episodeText(episode: Anomaly['episode']): string {
  if (episode.ongoing) return `from ${episode.start}, ongoing (${days(episode.days)} so far)`
  if (episode.days === 1) return `on ${episode.start}`
  return `from ${episode.start} to ${episode.end ?? episode.lastDay} (${days(episode.days)})`
}

/** An amount with its sign (+ or −), as a change reads. */
export function signedMoney(amount: number, currency: string): string {
  return `${amount >= 0 ? '+' : '−'}${formatMoney(Math.abs(amount), currency)}`
}

export function signedPercent(percent: number): string {
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent).toFixed(0)}%`
}

/** How the page words each judgement a person may give. */
export const FEEDBACK_LABELS: Record<AnomalyFeedback, string> = {
  Expected: 'Expected',
  NotAnAnomaly: 'Not an anomaly',
  Confirmed: 'Confirmed',
}
