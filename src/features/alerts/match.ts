import type { AnomalyRecord } from '../anomalies/public.js'
import type { RuleScope, RuleTrigger } from './schemas.js'

/**
 * Which anomalies a rule alerts about: plain data in, plain data out. The alert run, the digests and the preview
 * all decide with these functions.
 */

/** An anomaly's severity as a level: a later run alerts again only above the level already sent. */
export const SEVERITY_RANK: Record<string, number> = { Low: 1, Medium: 2, High: 3 }

/** An anomaly with what scope filters need: the tags of its resource or resource group (null for broader scopes). */
export interface Candidate {
  anomaly: AnomalyRecord
  tags: Readonly<Record<string, string>> | null
}

const same = (a: string | null | undefined, b: string) => a != null && a.toLowerCase() === b.toLowerCase()

/**
 * Whether the anomaly lies in the rule's scope: its tenancy (null: any of the organisation), the resource group
 * (any subscription, without letter case), the service, and every tag filter with the markers' semantics (the
 * key without letter case, the value exactly) on the resource's or the group's own tags. Tenant, subscription
 * and service anomalies span many tag sets: they never match a tag filter.
 */
export function inScope(scope: RuleScope, c: Candidate): boolean {
  const a = c.anomaly
  if (scope.tenancyIds && !scope.tenancyIds.includes(a.tenancyId)) return false
  if (scope.resourceGroup && !same(a.scope.resourceGroupName, scope.resourceGroup)) return false
  if (scope.service && !same(a.scope.serviceName, scope.service)) return false
  const filters = scope.tags ?? []
  if (filters.length === 0) return true
  if (!c.tags) return false
  const tags = Object.entries(c.tags)
  return filters.every((f) => tags.some(([k, v]) => same(k, f.key) && v === f.value))
}

/**
 * Whether the anomaly's episode passes an AnomalyRaised trigger: its total impact (money, either direction) and
 * its impact in percent of the expected spend, both (`all`) or either (`any`) as given, and at least minSeverity.
 * A trigger without thresholds passes every anomaly of at least its severity.
 */
export function passesThresholds(trigger: RuleTrigger, a: AnomalyRecord): boolean {
  if (trigger.minSeverity && (SEVERITY_RANK[a.severity] ?? 0) < SEVERITY_RANK[trigger.minSeverity]!) return false
  const checks: boolean[] = []
  if (trigger.minImpact != null) checks.push(Math.abs(a.episode.totalImpact) >= trigger.minImpact)
  if (trigger.minImpactPercent != null) checks.push(Math.abs(a.episode.totalImpactPercent) >= trigger.minImpactPercent)
  if (checks.length === 0) return true
  return (trigger.combine ?? 'any') === 'all' ? checks.every(Boolean) : checks.some(Boolean)
}

/** An alert about one incident: the anomaly it leads with, and how many others of the incident matched too. */
export interface IncidentAlert {
  lead: AnomalyRecord
  /** Every matching anomaly of the incident, the lead first. */
  members: AnomalyRecord[]
}

/**
 * One alert per incident: the matching anomalies grouped by incident, each led by the incident's head when it
 * matched, else by the member with the largest impact. Largest impact first.
 */
export function byIncident(matches: readonly AnomalyRecord[]): IncidentAlert[] {
  const groups = new Map<string, AnomalyRecord[]>()
  for (const a of matches) groups.set(a.incidentId, [...(groups.get(a.incidentId) ?? []), a])
  const alerts = [...groups.entries()].map(([incidentId, members]) => {
    const sorted = [...members].sort(
      (x, y) =>
        Number(y.id === incidentId) - Number(x.id === incidentId) ||
        Math.abs(y.episode.totalImpact) - Math.abs(x.episode.totalImpact) ||
        x.id.localeCompare(y.id),
    )
    return { lead: sorted[0]!, members: sorted }
  })
  return alerts.sort(
    (x, y) =>
      Math.abs(y.lead.episode.totalImpact) - Math.abs(x.lead.episode.totalImpact) || x.lead.id.localeCompare(y.lead.id),
  )
}

/** The anomalies of `candidates` an AnomalyRaised rule alerts about (scope and thresholds), one alert per incident. */
export function matchAnomalies(
  scope: RuleScope,
  trigger: RuleTrigger,
  candidates: readonly Candidate[],
): IncidentAlert[] {
  return byIncident(
    candidates.filter((c) => inScope(scope, c) && passesThresholds(trigger, c.anomaly)).map((c) => c.anomaly),
  )
}
