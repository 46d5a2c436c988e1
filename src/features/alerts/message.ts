import type { AnomalyRecord } from '../anomalies/public.js'
import type { BudgetAtRisk, BudgetEvaluation, BudgetMarker } from '../budgets/public.js'
import type { EventRecord } from '../events/public.js'
import type { AlertMessage, EventType, NotificationEvent } from '../notifications/public.js'
import type { IncidentAlert } from './match.js'
import type { Excess } from './predictions.js'

/**
 * What an alert says, built once for every channel: what (an anomaly, an insight, a digest), where (the scope by
 * name), how much (expected against actual, the impact in money and percent) and why (the top drivers, the
 * deployment just before). Plain functions of the records and their names.
 */

/** The names a message uses instead of ids: the tenancy, its subscriptions' display names, resources' names. */
export interface Names {
  tenancy: string
  subscriptions: ReadonlyMap<string, string>
  resources: ReadonlyMap<string, string>
}

const MAX_DRIVERS = 5

/** `US$1,204.50`, `€80.00`: British English writes the dollar's country, so US$ and A$ never mix. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount)
  } catch {
    return `${amount.toFixed(2)} ${currency}`
  }
}

const signed = (amount: number, currency: string) => `${amount >= 0 ? '+' : '−'}${money(Math.abs(amount), currency)}`
const percent = (p: number) => `${p >= 0 ? '+' : '−'}${Math.abs(Math.round(p * 10) / 10)}%`

/** `24 Nov 2026`. */
function date(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

/** The anomaly's scope as people name it, and its kind in words. */
export function scopeName(a: AnomalyRecord, names: Names): { kind: string; name: string } {
  const s = a.scope
  const subscription = (id: string | null) => (id ? (names.subscriptions.get(id) ?? id) : '')
  switch (s.kind) {
    case 'Subscription':
      return { kind: 'Subscription', name: subscription(s.subscriptionId) }
    case 'ResourceGroup':
      return { kind: 'ResourceGroup', name: s.resourceGroupName ?? '' }
    case 'Resource':
      return { kind: 'Resource', name: (s.resourceId && names.resources.get(s.resourceId)) || s.resourceId || '' }
    case 'Service':
      return { kind: 'Service', name: s.serviceName ?? '' }
    default:
      return { kind: 'Tenant', name: names.tenancy }
  }
}

/** The scope with where it lies: `vm-api-0003 (rg-api-prod, Production)`. */
function scopeLine(a: AnomalyRecord, names: Names): string {
  const { kind, name } = scopeName(a, names)
  const sub = a.scope.subscriptionId
    ? (names.subscriptions.get(a.scope.subscriptionId) ?? a.scope.subscriptionId)
    : null
  const where =
    kind === 'Resource'
      ? [a.scope.resourceGroupName, sub]
      : kind === 'ResourceGroup'
        ? [sub]
        : kind === 'Service'
          ? ['service, whole tenancy']
          : []
  const place = where.filter(Boolean).join(', ')
  return place ? `${name} (${place})` : name
}

/** The chart of the anomaly's scope in the web interface: the explorer's address (web/src/components/chart-scope.ts). */
export function chartUrl(publicUrl: string, a: AnomalyRecord): string {
  const base = `${publicUrl}/tenants/${a.tenancyId}`
  const s = a.scope
  const q = (scope: string, more: Record<string, string> = {}) =>
    `${base}?${new URLSearchParams({ scope, ...more }).toString()}`
  switch (s.kind) {
    case 'Subscription':
      return q(`subscription:${s.subscriptionId}`)
    case 'ResourceGroup':
      return q(`resourceGroup:${s.resourceGroupName}`, s.subscriptionId ? { subscriptionId: s.subscriptionId } : {})
    case 'Resource':
      return s.resourceId ? q(`resource:${s.resourceId}`) : base
    default:
      return base
  }
}

export const anomalyUrl = (publicUrl: string, anomalyId: string) => `${publicUrl}/anomalies/${anomalyId}`

/** "Deployment 'api v2.3.1', 2 hours before": the newest deployment visible on the scope up to the episode's start. */
export function likelyCauseLine(a: AnomalyRecord): string | null {
  const cause = a.likelyCause
  if (!cause) return null
  const start = Date.parse(`${a.episode.start}T00:00:00Z`)
  const at = Date.parse(cause.occurredAt)
  const hours = Math.round((start - at) / 3_600_000)
  const when =
    at >= start
      ? `on ${date(a.episode.start)}, the day it started`
      : hours < 1
        ? 'less than an hour before'
        : hours < 48
          ? `${hours} hour${hours === 1 ? '' : 's'} before`
          : `${Math.round(hours / 24)} days before`
  return `${cause.category} '${cause.title}', ${when}`
}

function since(a: AnomalyRecord): string {
  return a.episode.ongoing
    ? `${date(a.episode.start)}, ongoing`
    : a.episode.end === a.episode.start
      ? date(a.episode.start)
      : `${date(a.episode.start)} to ${date(a.episode.end ?? a.episode.lastDay)}`
}

/** The event of an incident alert: `anomaly.raised` the first time, `anomaly.updated` when its severity rose. */
export function anomalyEvent(input: {
  alert: IncidentAlert
  type: Extract<EventType, 'anomaly.raised' | 'anomaly.updated'>
  ruleId: string
  ruleName: string
  names: Names
  publicUrl: string
  at: string
}): NotificationEvent {
  const { alert, names, publicUrl } = input
  const a = alert.lead
  const e = a.episode
  const currency = a.currency
  const scope = scopeName(a, names)
  const where = scopeLine(a, names)
  const others = alert.members.length - 1
  const verb = input.type === 'anomaly.updated' ? `Anomaly now ${a.severity}` : 'Anomaly'
  const title = `${verb} on ${scope.name} (${names.tenancy}): ${signed(e.totalImpact, currency)} (${percent(e.totalImpactPercent)}) since ${date(e.start)}`
  const drivers = a.drivers.slice(0, MAX_DRIVERS).map((d) => `${d.label}: ${signed(d.change, currency)}`)
  const cause = likelyCauseLine(a)
  const sections: AlertMessage['sections'] = []
  if (drivers.length) sections.push({ heading: 'Top drivers', lines: drivers })
  if (cause) sections.push({ heading: 'Likely cause', lines: [cause] })
  if (others > 0)
    sections.push({
      heading: 'Same incident',
      lines: [
        `${others} more anomal${others === 1 ? 'y' : 'ies'} of this incident matched the rule (${a.incidentSize} in the incident).`,
      ],
    })
  const url = anomalyUrl(publicUrl, a.id)
  const summary =
    `${scope.kind === 'Tenant' ? 'The tenancy' : where} cost ${money(e.actualCost, currency)} against ` +
    `${money(e.expectedCost, currency)} expected (${signed(e.totalImpact, currency)}, ${percent(e.totalImpactPercent)}), ` +
    `${a.severity} severity, since ${since(a)}.` +
    (cause ? ` Likely cause: ${cause}.` : '')
  return {
    type: input.type,
    timestamp: input.at,
    data: {
      anomalyId: a.id,
      tenancyId: a.tenancyId,
      incidentId: a.incidentId,
      incidentSize: a.incidentSize,
      matchedInIncident: alert.members.length,
      severity: a.severity,
      impact: round2(e.totalImpact),
      impactPercent: e.totalImpactPercent,
      expected: round2(e.expectedCost),
      actual: round2(e.actualCost),
      currency,
      scope: { kind: scope.kind, name: scope.name },
      episode: { start: e.start, end: e.end, ongoing: e.ongoing },
      likelyCause: a.likelyCause ? { eventId: a.likelyCause.id, title: a.likelyCause.title } : null,
      ruleId: input.ruleId,
      url,
      chartUrl: chartUrl(publicUrl, a),
    },
    message: {
      title,
      summary,
      facts: [
        { label: 'Tenancy', value: names.tenancy },
        { label: 'Scope', value: `${scope.kind === 'ResourceGroup' ? 'Resource group' : scope.kind}: ${where}` },
        { label: 'Expected', value: money(e.expectedCost, currency) },
        { label: 'Actual', value: money(e.actualCost, currency) },
        { label: 'Impact', value: `${signed(e.totalImpact, currency)} (${percent(e.totalImpactPercent)})` },
        { label: 'Severity', value: a.severity },
        { label: 'Since', value: since(a) },
        { label: 'Rule', value: input.ruleName },
      ],
      sections,
      link: { label: 'Open the chart', url: chartUrl(publicUrl, a) },
      actions: [{ label: 'Acknowledge', url }],
    },
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** An insight as alerts and digests read it. */
export interface InsightLine {
  id: string
  tenantId: string
  title: string
  resourceName: string
  category: string
  severity: string
  estimatedMonthlySavings: number
  currency: string
}

/** What every event a rule sends carries: the rule, the tenancy by name, where links point, and when. */
export interface RuleEventContext {
  ruleId: string
  ruleName: string
  tenancyName: string
  publicUrl: string
  at: string
}

export const insightUrl = (publicUrl: string, id: string) => `${publicUrl}/insights/${id}`

export function insightEvent(input: RuleEventContext & { insight: InsightLine }): NotificationEvent {
  const i = input.insight
  const savings = money(i.estimatedMonthlySavings, i.currency)
  const url = insightUrl(input.publicUrl, i.id)
  return {
    type: 'insight.found',
    timestamp: input.at,
    data: {
      insightId: i.id,
      tenancyId: i.tenantId,
      category: i.category,
      severity: i.severity,
      estimatedMonthlySavings: round2(i.estimatedMonthlySavings),
      currency: i.currency,
      resourceName: i.resourceName,
      ruleId: input.ruleId,
      url,
    },
    message: {
      title: `Saving found on ${i.resourceName} (${input.tenancyName}): ${savings} a month`,
      summary: `${i.title}. Estimated savings: ${savings} a month.`,
      facts: [
        { label: 'Tenancy', value: input.tenancyName },
        { label: 'Resource', value: i.resourceName },
        { label: 'Finding', value: i.title },
        { label: 'Savings', value: `${savings} a month` },
        { label: 'Rule', value: input.ruleName },
      ],
      sections: [],
      link: { label: 'Open the insight', url },
      actions: [],
    },
  }
}

/** What a digest holds: the period's top anomalies by impact, the budgets at risk, the new insights. */
export interface DigestContent {
  from: string
  to: string
  anomalies: { anomaly: AnomalyRecord; names: Names }[]
  /** The anomalies the period held in all (the list shows the top ones). */
  anomalyCount: number
  insights: { insight: InsightLine; tenancyName: string }[]
  insightCount: number
  /** The budgets in the rule's scope forecast to pass their amount this period, by breach date. */
  budgetsAtRisk: BudgetAtRisk[]
}

export const DIGEST_TOP = 10

export function digestEvent(input: {
  content: DigestContent
  ruleId: string
  ruleName: string
  frequency: 'Daily' | 'Weekly'
  periodKey: string
  publicUrl: string
  at: string
}): NotificationEvent {
  const { content, publicUrl } = input
  const anomalyLines = content.anomalies.map(({ anomaly: a, names }) => {
    const s = scopeName(a, names)
    return `${a.severity} · ${s.name} (${names.tenancy}): ${signed(a.episode.totalImpact, a.currency)} (${percent(a.episode.totalImpactPercent)}) since ${date(a.episode.start)} · ${a.status}`
  })
  const insightLines = content.insights.map(
    ({ insight: i, tenancyName }) =>
      `${i.title} · ${i.resourceName} (${tenancyName}): ${money(i.estimatedMonthlySavings, i.currency)} a month`,
  )
  const more = (shown: number, all: number) => (all > shown ? [`…and ${all - shown} more`] : [])
  const atRisk = content.budgetsAtRisk.length
  const quiet = content.anomalyCount === 0 && content.insightCount === 0 && atRisk === 0
  const period = input.frequency === 'Daily' ? 'Daily' : 'Weekly'
  return {
    type: 'digest',
    timestamp: input.at,
    data: {
      ruleId: input.ruleId,
      period: input.periodKey,
      from: content.from,
      to: content.to,
      anomalyCount: content.anomalyCount,
      anomalies: content.anomalies.map(({ anomaly: a }) => ({
        anomalyId: a.id,
        tenancyId: a.tenancyId,
        severity: a.severity,
        status: a.status,
        impact: round2(a.episode.totalImpact),
        currency: a.currency,
        url: anomalyUrl(publicUrl, a.id),
      })),
      budgetsAtRisk: content.budgetsAtRisk.map((b) => ({
        budgetId: b.budgetId,
        name: b.name,
        breachDate: b.breachDate,
        percent: b.percent,
        amount: b.amount,
        currency: b.currency,
        url: budgetUrl(publicUrl, b.budgetId),
      })),
      insightCount: content.insightCount,
      insights: content.insights.map(({ insight: i }) => ({
        insightId: i.id,
        tenancyId: i.tenantId,
        estimatedMonthlySavings: round2(i.estimatedMonthlySavings),
        currency: i.currency,
        url: insightUrl(publicUrl, i.id),
      })),
      url: `${publicUrl}/anomalies`,
    },
    message: {
      title: quiet
        ? `${period} digest (${input.ruleName}): nothing to report`
        : `${period} digest (${input.ruleName}): ${content.anomalyCount} anomal${content.anomalyCount === 1 ? 'y' : 'ies'}, ${content.insightCount} new insight${content.insightCount === 1 ? '' : 's'}${atRisk ? `, ${atRisk} budget${atRisk === 1 ? '' : 's'} at risk` : ''}`,
      summary: quiet
        ? 'No anomaly, no new insight and no budget at risk in the period.'
        : `${content.anomalyCount} anomal${content.anomalyCount === 1 ? 'y' : 'ies'} and ${content.insightCount} new insight${content.insightCount === 1 ? '' : 's'} from ${content.from} to ${content.to}${atRisk ? `; ${atRisk} budget${atRisk === 1 ? '' : 's'} forecast past ${atRisk === 1 ? 'its' : 'their'} amount` : ''}.`,
      facts: [
        { label: 'Period', value: `${content.from} to ${content.to}` },
        { label: 'Anomalies', value: String(content.anomalyCount) },
        { label: 'New insights', value: String(content.insightCount) },
        { label: 'Budgets at risk', value: String(atRisk) },
      ],
      sections: [
        { heading: 'Top anomalies', lines: [...anomalyLines, ...more(anomalyLines.length, content.anomalyCount)] },
        {
          heading: 'Budgets at risk',
          lines: content.budgetsAtRisk.map(
            (b) =>
              `${b.name}: forecast ${b.percent}% of ${money(b.amount, b.currency)}, exceeding it on ${date(b.breachDate)}`,
          ),
        },
        { heading: 'New insights', lines: [...insightLines, ...more(insightLines.length, content.insightCount)] },
      ].filter((s) => s.lines.length > 0),
      link: { label: 'Open the anomalies', url: `${publicUrl}/anomalies` },
      actions: [],
    },
  }
}

/** `+US$1,900/month`: a monthly rate in whole units, as estimates are read. */
export function perMonth(amount: number, currency: string): string {
  let text: string
  try {
    text = new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 0 }).format(
      Math.abs(amount),
    )
  } catch {
    text = `${Math.abs(amount).toFixed(0)} ${currency}`
  }
  return `${amount >= 0 ? '+' : '−'}${text}/month`
}

export const markersUrl = (publicUrl: string, tenantId: string) => `${publicUrl}/tenants/${tenantId}/markers`

/** "this deploy was estimated at +US$120/month and is running at +US$1,900/month", with the marker's title. */
export function predictionEvent(input: RuleEventContext & { marker: EventRecord; excess: Excess }): NotificationEvent {
  const { marker, excess: x, publicUrl } = input
  const p = marker.prediction!
  const estimated = perMonth(x.predicted, x.currency)
  const running = perMonth(x.observed, x.currency)
  const what = marker.category === 'Deployment' ? 'this deploy' : `this ${marker.category.toLowerCase()}`
  const chart = `${publicUrl}/tenants/${marker.tenantId}`
  const url = markersUrl(publicUrl, marker.tenantId)
  const commit = p.commit ? ` (commit ${p.commit.slice(0, 12)})` : ''
  const summary = `'${marker.title}'${commit}: ${what} was estimated at ${estimated} and is running at ${running} (over the ${x.days} settled days after it, against as many before).`
  const facts: AlertMessage['facts'] = [
    { label: 'Tenancy', value: input.tenancyName },
    { label: 'Marker', value: `${marker.title} (${date(marker.occurredAt.slice(0, 10))})` },
    { label: 'Estimated', value: `${estimated} (${p.source})` },
    { label: 'Observed', value: `${running} over ${x.days} settled days` },
    {
      label: 'Excess',
      value: `${perMonth(x.excess, x.currency)}${x.excessPercent === null ? '' : ` (${percent(x.excessPercent)})`}`,
    },
  ]
  if (p.commit) facts.push({ label: 'Commit', value: p.commit })
  if (p.pullRequestUrl) facts.push({ label: 'Pull request', value: p.pullRequestUrl })
  if (marker.tagKey) facts.push({ label: 'Scope', value: `tag ${marker.tagKey}=${marker.tagValue}` })
  facts.push({ label: 'Rule', value: input.ruleName })
  return {
    type: 'prediction.exceeded',
    timestamp: input.at,
    data: {
      eventId: marker.id,
      tenancyId: marker.tenantId,
      title: marker.title,
      predicted: round2(x.predicted),
      observed: round2(x.observed),
      excess: round2(x.excess),
      excessPercent: x.excessPercent,
      days: x.days,
      currency: x.currency,
      source: p.source,
      commit: p.commit,
      pullRequestUrl: p.pullRequestUrl,
      ruleId: input.ruleId,
      url,
      chartUrl: chart,
      summary,
    },
    message: {
      title: `'${marker.title}' costs more than estimated: ${running} against ${estimated}`,
      summary,
      facts,
      sections: [],
      link: { label: 'Open the chart', url: chart },
      actions: [
        ...(p.pullRequestUrl ? [{ label: 'Open the pull request', url: p.pullRequestUrl }] : []),
        { label: 'Open the markers', url },
      ],
    },
  }
}

export const budgetUrl = (publicUrl: string, budgetId: string) => `${publicUrl}/budgets/${budgetId}`

/** What a budget alert explains: the services that drove the period's spend, and the markers since it began. */
export interface BudgetExplanation {
  drivers: { service: string; cost: number; previous: number; change: number }[]
  markers: BudgetMarker[]
  /** The days of the period compared with as many of the period before (0: no period before). */
  comparedDays: number
}

/**
 * A budget threshold crossed: "Payments has spent US$9,800, 82% of US$12,000 (threshold 80% of actual spend)", with
 * its forecast and breach date, the drivers this period against the last, and the markers since it began.
 */
export function budgetEvent(
  input: Omit<RuleEventContext, 'tenancyName'> & {
    evaluation: BudgetEvaluation
    thresholdIndex: number
    explanation: BudgetExplanation
    scope: string
  },
): NotificationEvent {
  const { evaluation, explanation, publicUrl } = input
  const { budget, status } = evaluation
  const threshold = status.thresholds[input.thresholdIndex]!
  const c = budget.currency
  const what =
    threshold.kind === 'Percent' ? `${threshold.value}% of ${money(status.amount, c)}` : money(threshold.value, c)
  const measured = threshold.basis === 'Actual' ? 'actual spend' : 'forecast at the period end'
  const url = budgetUrl(publicUrl, budget.id)
  const period = `${date(status.periodFrom)} – ${date(status.periodTo)}`
  const forecast = `${money(status.forecast.expected, c)} (${money(status.forecast.lower, c)} – ${money(status.forecast.upper, c)})`
  const breach = status.breachDate
    ? ` At the current run-rate it exceeds its amount on ${date(status.breachDate)}.`
    : ' At the current run-rate it stays within its amount.'
  const summary =
    `Budget '${budget.name}' (${period}) has spent ${money(status.actual, c)} through ${date(evaluation.actualThrough)}, ` +
    `${status.percent}% of ${money(status.amount, c)}; forecast ${forecast} at the period end.${breach}`
  const title =
    threshold.basis === 'Actual'
      ? `Budget '${budget.name}' passed ${what}: ${money(status.actual, c)} spent`
      : `Budget '${budget.name}' is forecast past ${what}: ${money(status.forecast.expected, c)} by ${date(status.periodTo)}`
  const facts: AlertMessage['facts'] = [
    { label: 'Budget', value: budget.name },
    { label: 'Scope', value: input.scope },
    { label: 'Period', value: period },
    { label: 'Threshold', value: `${what} (${measured})` },
    { label: 'Spent', value: `${money(status.actual, c)} (${status.percent}%)` },
    { label: 'Forecast', value: forecast },
    { label: 'Exceeds on', value: status.breachDate ? date(status.breachDate) : 'not at the current run-rate' },
    { label: 'Rule', value: input.ruleName },
  ]
  const sections: AlertMessage['sections'] = []
  if (explanation.drivers.length)
    sections.push({
      heading:
        explanation.comparedDays > 0
          ? `Top drivers (this period against the same ${explanation.comparedDays} days of the last)`
          : 'Top drivers',
      lines: explanation.drivers.map(
        (d) => `${d.service}: ${money(d.cost, c)}${explanation.comparedDays > 0 ? ` (${signed(d.change, c)})` : ''}`,
      ),
    })
  if (explanation.markers.length)
    sections.push({
      heading: `Markers since ${date(status.periodFrom)}`,
      lines: explanation.markers.map((m) => `${date(m.occurredAt.slice(0, 10))} · ${m.category} · ${m.title}`),
    })
  return {
    type: 'budget.threshold_crossed',
    timestamp: input.at,
    data: {
      budgetId: budget.id,
      name: budget.name,
      periodFrom: status.periodFrom,
      periodTo: status.periodTo,
      amount: status.amount,
      currency: c,
      threshold: { kind: threshold.kind, value: threshold.value, basis: threshold.basis },
      actual: status.actual,
      forecast: status.forecast,
      percent: status.percent,
      breachDate: status.breachDate,
      drivers: explanation.drivers.map((d) => ({ service: d.service, cost: round2(d.cost), change: round2(d.change) })),
      markerIds: explanation.markers.map((m) => m.id),
      ruleId: input.ruleId,
      url,
      summary,
    },
    message: { title, summary, facts, sections, link: { label: 'Open the budget', url }, actions: [] },
  }
}
