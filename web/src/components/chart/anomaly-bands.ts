import { type Anomaly, type AnomalySeverity, scopeLabel } from '../../pages/anomalies/api'
import { episodeText, groupIncidents, type Incident } from '../../pages/anomalies/incidents'
import './anomalies.css'

/** An incident on the chart: one band over its episode's days, one link at its foot. */
export interface AnomalyMark {
  /** `incident:{incidentId}`: the chart's `active` key, never a marker's id. */
  key: string
  incident: Incident
  /** The first and last day the band covers. */
  start: string
  lastDay: string
  severity: AnomalySeverity
  /** Marks whose days overlap are stacked: 0 at the foot of the chart, 1 above it, … */
  lane: number
}

/** What a mark says (its link's accessible name): the head's severity, episode and scope, and the size. */
export function markLabel({ incident }: AnomalyMark): string {
  const { head } = incident
  const size = incidentSize(incident)
  return `${head.severity} anomaly ${episodeText(head.episode)}, ${scopeLabel(head.scope)}${size ? ` (${size})` : ''}: ${head.description}`
}

/** Band colours by the severity of the incident's head (as the lists show it): light enough for the lines to read over them. */
export const SEVERITY_BANDS: Record<AnomalySeverity, { fill: string; active: string }> = {
  High: { fill: 'rgba(225, 29, 72, 0.12)', active: 'rgba(225, 29, 72, 0.28)' },
  Medium: { fill: 'rgba(217, 119, 6, 0.13)', active: 'rgba(217, 119, 6, 0.3)' },
  Low: { fill: 'rgba(37, 99, 235, 0.1)', active: 'rgba(37, 99, 235, 0.25)' },
}

/**
 * "incident of 5 anomalies", "2 of an incident's 5 anomalies" when a narrower chart holds only some of them, or ""
 * for an anomaly alone.
 */
export function incidentSize(incident: Incident): string {
  const atHand = incident.members.length + 1
  const size = Math.max(atHand, ...[incident.head, ...incident.members].map((a) => a.incidentSize))
  if (size === 1) return ''
  return atHand === size ? `incident of ${size} anomalies` : `${atHand} of an incident's ${size} anomalies`
}

/** One mark per incident of the anomalies, earliest first, spanning the days of its episodes. */
export function anomalyMarks(anomalies: Anomaly[]): AnomalyMark[] {
  const incidents = groupIncidents(anomalies).sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id))
  const laneEnds: string[] = []
  return incidents.map((incident) => {
    let lane = laneEnds.findIndex((end) => end < incident.start)
    if (lane < 0) lane = laneEnds.length
    laneEnds[lane] = incident.lastDay
    return {
      key: `incident:${incident.id}`,
      incident,
      start: incident.start,
      lastDay: incident.lastDay,
      severity: incident.head.severity,
      lane,
    }
  })
}

/**
 * What makes an element of the chart (a marker's handle, an anomaly's link, an item of the lists under the chart)
 * highlight its counterpart: hovering or focusing it activates `key`, leaving it or Escape lets go.
 */
export function activatedBy(key: string, onActivate: (key: string | null) => void) {
  return {
    onMouseEnter: () => onActivate(key),
    onMouseLeave: () => onActivate(null),
    onFocus: () => onActivate(key),
    onBlur: () => onActivate(null),
    onKeyDown: (e: KeyboardEvent) => e.key === 'Escape' && onActivate(null),
  }
}
