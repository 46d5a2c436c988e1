import type { Clock } from '../../platform/clock.js'
import type { Queryable } from '../../platform/db/index.js'
import { defineRunKind } from '../../platform/runs/worker.js'
import type { AnomalyRecord } from '../anomalies/public.js'
import type { BudgetDefinition } from '../budgets/public.js'
import type { DeliveryRequest, QueueDeliveries } from '../notifications/public.js'
import { type IncidentAlert, matchAnomalies, SEVERITY_RANK } from './match.js'
import {
  anomalyEvent,
  budgetEvent,
  DIGEST_TOP,
  type DigestContent,
  digestEvent,
  type InsightLine,
  insightEvent,
  predictionEvent,
} from './message.js'
import { periodOf } from './period.js'
import { PREDICTION_WATCH_DAYS, predictionExcess, scopeTakesMarker } from './predictions.js'
import type { RuleScope } from './schemas.js'
import type { AlertSources } from './sources.js'
import { ALERT_RUNS, type AlertRunColumns, type AlertStore, type RuleDefinition } from './store.js'

interface Send {
  ruleId: string
  subjectKey: string
  level: number
  sentAt: string
}

const anomalyKey = (id: string) => `anomaly:${id}`
const insightKey = (id: string) => `insight:${id}`
const predictionKey = (eventId: string) => `prediction:${eventId}`
const budgetKey = (budgetId: string, periodFrom: string, index: number) => `budget:${budgetId}:${periodFrom}:${index}`

/** A budget threshold crossed in a period: latched in the run's success, and alerted about only when this run did. */
interface BudgetCrossing {
  budgetId: string
  periodFrom: string
  index: number
  since: string
  requests: DeliveryRequest[]
  sends: Send[]
}

/** Whether a BudgetThreshold rule watches a budget: named by it (or none named), every tenancy in its scope. */
function watches(rule: RuleDefinition, budget: BudgetDefinition): boolean {
  const named = rule.trigger.budgetIds ?? []
  if (named.length && !named.includes(budget.id)) return false
  const tenancies = rule.scope.tenancyIds
  if (tenancies === null) return true
  return budget.scope.tenancyIds?.every((id) => tenancies.includes(id)) ?? false
}

/** A budget's scope in words: its tenancies by name (or the whole organisation) and its filters. */
function budgetScopeText(budget: BudgetDefinition, names: ReadonlyMap<string, string>): string {
  const s = budget.scope
  const parts = [
    s.tenancyIds === null ? 'the whole organisation' : s.tenancyIds.map((id) => names.get(id) ?? id).join(', '),
    ...(s.tags ?? []).map((t) => `tag ${t.key}=${t.value}`),
    ...(s.resourceGroup ? [`resource group ${s.resourceGroup}`] : []),
    ...(s.service ? [`service ${s.service}`] : []),
  ]
  return parts.join(' · ')
}

/** Whether a rule's scope takes the tenancy (null: every tenancy of the organisation). */
const covers = (scope: RuleScope, tenancyId: string) =>
  scope.tenancyIds === null || scope.tenancyIds.includes(tenancyId)

/**
 * An alert run: the organisation's rules evaluated against what an analysis run wrote (`analysis`), or one rule's
 * digest of a period (`digest`). The deliveries and what the rules sent are written in the run's success
 * transaction, so a run that is retried after a crash sends nothing twice and misses nothing.
 */
export function alertRunKind(deps: {
  store: AlertStore
  sources: AlertSources
  queueDeliveries: QueueDeliveries
  /** When an analysis run started: the anomalies and insights it wrote carry a later time. */
  analysisStartedAt(runId: string): Promise<string | null>
  publicUrl: string
  clock: Clock
}) {
  const { store, sources, publicUrl } = deps

  /**
   * The incident alerts a rule sends now: those whose highest severity rises above what the rule sent about any
   * of its anomalies (never sent: 0). Returns each with its event type and level.
   */
  async function newAlerts(rule: RuleDefinition, alerts: IncidentAlert[]) {
    const sent = await store.sentLevels(
      rule.id,
      alerts.flatMap((a) => a.members.map((m) => anomalyKey(m.id))),
    )
    return alerts.flatMap((alert) => {
      const level = Math.max(...alert.members.map((m) => SEVERITY_RANK[m.severity] ?? 1))
      const before = Math.max(0, ...alert.members.map((m) => sent.get(anomalyKey(m.id)) ?? 0))
      if (level <= before) return []
      const type = before === 0 ? ('anomaly.raised' as const) : ('anomaly.updated' as const)
      return [{ alert, level, type }]
    })
  }

  const sendsOf = (ruleId: string, members: AnomalyRecord[], level: number, at: string): Send[] =>
    members.map((m) => ({ ruleId, subjectKey: anomalyKey(m.id), level, sentAt: at }))

  async function unsentInsights(rule: RuleDefinition, insights: InsightLine[]) {
    const min = rule.trigger.minMonthlySavings ?? 0
    const over = insights.filter((i) => covers(rule.scope, i.tenantId) && i.estimatedMonthlySavings >= min)
    const sent = await store.sentLevels(
      rule.id,
      over.map((i) => insightKey(i.id)),
    )
    return over.filter((i) => !sent.has(insightKey(i.id)))
  }

  /** The rules' immediate alerts about what one analysis run of a tenant wrote. */
  async function afterAnalysis(run: { organisationId: string; tenantId: string; sourceRunId: string }) {
    const at = deps.clock.now().toISOString()
    const since = (await deps.analysisStartedAt(run.sourceRunId)) ?? at
    const rules = (await store.enabledOf(run.organisationId)).filter(
      (r) => r.frequency === 'Immediate' && covers(r.scope, run.tenantId),
    )
    const requests: DeliveryRequest[] = []
    const sends: Send[] = []
    const anomalyRules = rules.filter((r) => r.trigger.type === 'AnomalyRaised')
    if (anomalyRules.length) {
      const records = await sources.anomalies.written([run.tenantId], since, null)
      const withTags = anomalyRules.some((r) => (r.scope.tags ?? []).length > 0)
      const candidates = await sources.candidates(records, withTags)
      const names = await sources.names(run.tenantId, records)
      for (const rule of anomalyRules) {
        for (const { alert, level, type } of await newAlerts(
          rule,
          matchAnomalies(rule.scope, rule.trigger, candidates),
        )) {
          requests.push({
            organisationId: run.organisationId,
            channelIds: rule.channelIds,
            ruleId: rule.id,
            eventKey: `rule:${rule.id}:anomaly:${alert.lead.id}:${level}`,
            tenancyId: run.tenantId,
            event: anomalyEvent({ alert, type, ruleId: rule.id, ruleName: rule.name, names, publicUrl, at }),
          })
          sends.push(...sendsOf(rule.id, alert.members, level, at))
        }
      }
    }
    const insightRules = rules.filter((r) => r.trigger.type === 'InsightFound')
    if (insightRules.length) {
      const found = await sources.insightsFound([run.tenantId], since, null)
      const tenancyName = (await sources.tenancyNames([run.tenantId])).get(run.tenantId) ?? run.tenantId
      for (const rule of insightRules) {
        for (const insight of await unsentInsights(rule, found)) {
          requests.push({
            organisationId: run.organisationId,
            channelIds: rule.channelIds,
            ruleId: rule.id,
            eventKey: `rule:${rule.id}:insight:${insight.id}`,
            tenancyId: run.tenantId,
            event: insightEvent({ insight, ruleId: rule.id, ruleName: rule.name, tenancyName, publicUrl, at }),
          })
          sends.push({ ruleId: rule.id, subjectKey: insightKey(insight.id), level: 1, sentAt: at })
        }
      }
    }
    const predictionRules = rules.filter((r) => r.trigger.type === 'PredictionExceeded')
    if (predictionRules.length) {
      const watchFrom = new Date(Date.parse(at) - PREDICTION_WATCH_DAYS * 86_400_000).toISOString()
      const markers = await sources.predictions.predictedSince(run.tenantId, watchFrom)
      const wanted = markers.filter((m) => predictionRules.some((r) => scopeTakesMarker(r.scope, m)))
      // The observed change is read once per marker, and only for markers some rule has not sent yet.
      const observed = new Map<string, Awaited<ReturnType<AlertSources['predictions']['observedChange']>>>()
      const tenancyName = (await sources.tenancyNames([run.tenantId])).get(run.tenantId) ?? run.tenantId
      for (const rule of predictionRules) {
        const mine = wanted.filter((m) => scopeTakesMarker(rule.scope, m))
        const sent = await store.sentLevels(
          rule.id,
          mine.map((m) => predictionKey(m.id)),
        )
        for (const marker of mine) {
          if (sent.has(predictionKey(marker.id))) continue
          let change = observed.get(marker.id)
          if (!change) {
            change = await sources.predictions.observedChange(marker)
            observed.set(marker.id, change)
          }
          const excess = predictionExcess(rule.trigger, marker, change)
          if (!excess) continue
          requests.push({
            organisationId: run.organisationId,
            channelIds: rule.channelIds,
            ruleId: rule.id,
            eventKey: `rule:${rule.id}:prediction:${marker.id}`,
            tenancyId: run.tenantId,
            event: predictionEvent({
              marker,
              excess,
              ruleId: rule.id,
              ruleName: rule.name,
              tenancyName,
              publicUrl,
              at,
            }),
          })
          sends.push({ ruleId: rule.id, subjectKey: predictionKey(marker.id), level: 1, sentAt: at })
        }
      }
    }
    const budgets = await budgetCrossings(run, rules, at)
    return { requests, sends, budgets }
  }

  /**
   * The budgets covering the tenancy, evaluated: every threshold crossed that its period has not latched, with the
   * alerts of the BudgetThreshold rules watching the budget (a threshold latches whether or not a rule watches it).
   */
  async function budgetCrossings(
    run: { organisationId: string; tenantId: string },
    rules: RuleDefinition[],
    at: string,
  ): Promise<BudgetCrossing[]> {
    const evaluations = await sources.budgets.evaluateAfter(run.organisationId, run.tenantId)
    if (!evaluations.length) return []
    const budgetRules = rules.filter((r) => r.trigger.type === 'BudgetThreshold')
    const tenancies = budgetRules.length ? await sources.tenancies(run.organisationId) : []
    const names = new Map(tenancies.map((t) => [t.id, t.name]))
    const crossings: BudgetCrossing[] = []
    for (const evaluation of evaluations) {
      const { budget, period } = evaluation
      const watching = budgetRules.filter((rule) => watches(rule, budget))
      const explanation = watching.length
        ? await sources.budgets.explain(evaluation, budget.scope.tenancyIds ?? tenancies.map((t) => t.id))
        : null
      for (const crossing of evaluation.crossings) {
        const subjectKey = budgetKey(budget.id, period.from, crossing.index)
        crossings.push({
          budgetId: budget.id,
          periodFrom: period.from,
          ...crossing,
          requests: watching.map((rule) => ({
            organisationId: run.organisationId,
            channelIds: rule.channelIds,
            ruleId: rule.id,
            // A change of the budget restarts its latches: its crossings after it are new events.
            eventKey: `rule:${rule.id}:${subjectKey}:${Date.parse(budget.updatedAt)}`,
            tenancyId: budget.scope.tenancyIds?.length === 1 ? budget.scope.tenancyIds[0]! : null,
            event: budgetEvent({
              evaluation,
              thresholdIndex: crossing.index,
              explanation: explanation!,
              scope: budgetScopeText(budget, names),
              ruleId: rule.id,
              ruleName: rule.name,
              publicUrl,
              at,
            }),
          })),
          sends: watching.map((rule) => ({ ruleId: rule.id, subjectKey, level: 1, sentAt: at })),
        })
      }
    }
    return crossings
  }

  /** Latches the crossings in the run's success transaction; answers the alerts of those this run latched first. */
  async function latchCrossings(tx: Queryable, crossings: BudgetCrossing[]) {
    const requests: DeliveryRequest[] = []
    const sends: Send[] = []
    const byPeriod = new Map<string, BudgetCrossing[]>()
    for (const c of crossings) {
      const key = `${c.budgetId} ${c.periodFrom}`
      byPeriod.set(key, [...(byPeriod.get(key) ?? []), c])
    }
    for (const group of byPeriod.values()) {
      const { budgetId, periodFrom } = group[0]!
      const latched = new Set(
        await sources.budgets.latch(
          tx,
          budgetId,
          periodFrom,
          group.map((c) => ({ index: c.index, since: c.since })),
        ),
      )
      for (const c of group)
        if (latched.has(c.index)) {
          requests.push(...c.requests)
          sends.push(...c.sends)
        }
    }
    return { requests, sends }
  }

  /** One rule's digest of the period due on `periodKey`. */
  async function digest(ruleId: string, periodKey: string) {
    const rule = await store.byId(ruleId)
    if (!rule?.enabled || rule.frequency === 'Immediate') return { requests: [], sends: [] }
    const at = deps.clock.now().toISOString()
    const frequency = rule.frequency as 'Daily' | 'Weekly'
    const period = periodOf({ ...rule, frequency }, periodKey)
    const from = period.from.toISOString()
    const before = period.to.toISOString()
    const tenancyIds = rule.scope.tenancyIds ?? (await sources.tenancies(rule.organisationId)).map((t) => t.id)
    const type = rule.trigger.type
    const sends: Send[] = []
    let anomalies: AnomalyRecord[] = []
    let anomalyCount = 0
    let insights: InsightLine[] = []
    // A summary covers its period; the matches of AnomalyRaised and InsightFound rules are gathered from the
    // rule's creation (a week back at most) and sent once each, so a period the workers missed loses none of them.
    const gatherFrom = new Date(Math.max(Date.parse(rule.createdAt), period.from.getTime() - 7 * 86_400_000))
    const since = type === 'Digest' ? from : gatherFrom.toISOString()
    if (type === 'Digest' || type === 'AnomalyRaised') {
      const records = await sources.anomalies.written(tenancyIds, since, before)
      const candidates = await sources.candidates(records, (rule.scope.tags ?? []).length > 0)
      // A digest lists the period's anomalies in scope; an AnomalyRaised rule's, those over its thresholds that it
      // has not sent yet (at this severity), one per incident.
      const trigger = type === 'Digest' ? { type: 'AnomalyRaised' as const } : rule.trigger
      let alerts = matchAnomalies(rule.scope, trigger, candidates)
      if (type === 'AnomalyRaised') {
        const fresh = await newAlerts(rule, alerts)
        for (const f of fresh) sends.push(...sendsOf(rule.id, f.alert.members, f.level, at))
        alerts = fresh.map((f) => f.alert)
      }
      anomalyCount = alerts.length
      anomalies = alerts.map((a) => a.lead)
    }
    if (type === 'Digest' || type === 'InsightFound') {
      const found = await sources.insightsFound(tenancyIds, since, before)
      insights =
        type === 'InsightFound'
          ? await unsentInsights(rule, found)
          : found.filter((i) => covers(rule.scope, i.tenantId))
      if (type === 'InsightFound')
        for (const i of insights) sends.push({ ruleId: rule.id, subjectKey: insightKey(i.id), level: 1, sentAt: at })
    }
    const budgetsAtRisk =
      type === 'Digest' ? await sources.budgets.atRiskWithin(rule.organisationId, rule.scope.tenancyIds) : []
    if (anomalyCount === 0 && insights.length === 0 && budgetsAtRisk.length === 0 && !rule.sendWhenQuiet)
      return { requests: [], sends }
    const top = anomalies.slice(0, DIGEST_TOP)
    const names = new Map<string, Awaited<ReturnType<AlertSources['names']>>>()
    for (const tenancyId of new Set([...top.map((a) => a.tenancyId), ...insights.map((i) => i.tenantId)]))
      names.set(
        tenancyId,
        await sources.names(
          tenancyId,
          top.filter((a) => a.tenancyId === tenancyId),
        ),
      )
    const content: DigestContent = {
      from,
      to: before,
      anomalies: top.map((anomaly) => ({ anomaly, names: names.get(anomaly.tenancyId)! })),
      anomalyCount,
      insights: insights
        .slice(0, DIGEST_TOP)
        .map((insight) => ({ insight, tenancyName: names.get(insight.tenantId)?.tenancy ?? insight.tenantId })),
      insightCount: insights.length,
      budgetsAtRisk,
    }
    const request: DeliveryRequest = {
      organisationId: rule.organisationId,
      channelIds: rule.channelIds,
      ruleId: rule.id,
      eventKey: `rule:${rule.id}:digest:${periodKey}`,
      tenancyId: tenancyIds.length === 1 ? tenancyIds[0]! : null,
      event: digestEvent({ content, ruleId: rule.id, ruleName: rule.name, frequency, periodKey, publicUrl, at }),
    }
    return { requests: [request], sends }
  }

  return defineRunKind<AlertRunColumns>({
    ...ALERT_RUNS,

    async handle(claimed, { succeed }) {
      const run = await store.runById(claimed.id)
      if (!run) throw new Error(`alert run ${claimed.id} disappeared`)
      const { requests, sends, budgets } =
        run.source === 'digest' && run.ruleId && run.periodKey
          ? { ...(await digest(run.ruleId, run.periodKey)), budgets: [] }
          : run.source === 'analysis' && run.tenantId && run.organisationId && run.sourceRunId
            ? await afterAnalysis({
                organisationId: run.organisationId,
                tenantId: run.tenantId,
                sourceRunId: run.sourceRunId,
              })
            : { requests: [], sends: [], budgets: [] }
      await succeed(async (tx) => {
        const latched = await latchCrossings(tx, budgets)
        requests.push(...latched.requests)
        sends.push(...latched.sends)
        if (requests.length) await deps.queueDeliveries(tx, requests)
        if (sends.length) await store.recordSends(tx, sends)
        return {}
      })
    },
  })
}
