import { type Acting, type AuditAction, recordAudit } from '../../platform/audit.js'
import { authoriseSomewhere, hasRole, type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import { addDays, toDay } from '../../platform/time.js'
import type { Frequency, TriggerType } from './constants.js'
import { matchAnomalies } from './match.js'
import { scopeName } from './message.js'
import { isTimeZone, latestDuePeriod } from './period.js'
import type {
  CreateRuleRequest,
  PatchRuleRequest,
  PreviewRuleRequest,
  RulePreview,
  RuleRecord,
  RuleScope,
  RuleTrigger,
} from './schemas.js'
import type { AlertSources } from './sources.js'
import type { AlertStore, AuditWrite, RuleDefinition } from './store.js'

/** The fields each trigger type takes, with their defaults; any other field is refused. */
const TRIGGER_FIELDS: Record<TriggerType, Partial<RuleTrigger>> = {
  AnomalyRaised: { minImpact: null, minImpactPercent: null, combine: 'any', minSeverity: null },
  BudgetThreshold: { budgetIds: [] },
  InsightFound: { minMonthlySavings: null },
  Digest: {},
  PredictionExceeded: { minExcess: null, minExcessPercent: null },
}

/** The fields that only a digest (Daily or Weekly) takes. */
const DIGEST_FIELDS = ['digestHour', 'digestWeekday', 'sendWhenQuiet'] as const

/** How many days of anomalies a preview looks back over. */
export const PREVIEW_DAYS = 30

/** The trigger with its type's defaults; an error for each field of another type. */
function normalisedTrigger(trigger: RuleTrigger, errors: FieldErrors): RuleTrigger {
  const fields = TRIGGER_FIELDS[trigger.type]
  for (const [key, value] of Object.entries(trigger)) {
    if (key === 'type' || value === undefined) continue
    if (!(key in fields)) errors[`trigger.${key}`] = [`is not a field of trigger type ${trigger.type}`]
  }
  const out: Record<string, unknown> = { type: trigger.type }
  for (const [key, fallback] of Object.entries(fields)) out[key] = (trigger as Record<string, unknown>)[key] ?? fallback
  return out as RuleTrigger
}

export function createAlertService(deps: {
  store: AlertStore
  sources: AlertSources
  clock: Clock
  ids: Ids
  /** Wakes this process's worker when a digest is queued. */
}) {
  const { store, sources, clock, ids } = deps

  const toRecord = ({ organisationId: _o, ...rule }: RuleDefinition): RuleRecord => rule

  /** The audit row of a change to a rule: its name, and for a change the fields the request named. */
  const audited =
    (by: Acting, action: AuditAction, rule: RuleDefinition, detail: Record<string, string> = {}): AuditWrite =>
    (tx) =>
      recordAudit(tx, ids, {
        organisationId: rule.organisationId,
        at: clock.now().toISOString(),
        by,
        action,
        target: { type: 'NotificationRule', id: rule.id },
        detail: { name: rule.name, ...detail },
      })

  /**
   * Checks a whole rule, the request's own fields in `given` (for the digest fields a frequency refuses), and
   * that the principal may hold it: an owner any rule, an Admin of every tenancy it covers one of those.
   */
  async function validated(who: Principal, draft: RuleDefinition, given: Partial<CreateRuleRequest>) {
    const errors: FieldErrors = {}
    const name = draft.name.trim()
    if (name === '') errors.name = ['must not be empty']
    const trigger = normalisedTrigger(draft.trigger, errors)
    const channelIds = [...new Set(draft.channelIds.map((id) => id.toLowerCase()))]
    const unknownChannels = await sources.unknownChannels(who.organisationId, channelIds)
    if (unknownChannels.length)
      errors.channelIds = unknownChannels.map((id) => `${id} is not a notification channel of this organisation`)
    const scope = draft.scope
    const tenancyIds = scope.tenancyIds ? [...new Set(scope.tenancyIds.map((id) => id.toLowerCase()))].sort() : null
    if (tenancyIds) {
      // Another organisation's tenancy is named exactly like an unknown one.
      const unknown = await sources.unknownTenancies(who.organisationId, tenancyIds)
      if (unknown.length)
        errors['scope.tenancyIds'] = unknown.map((id) => `${id} is not a tenancy of this organisation`)
    }
    const tags = (scope.tags ?? []).map((t) => ({ key: t.key.trim(), value: t.value }))
    tags.forEach((t, i) => {
      if (t.key === '') errors[`scope.tags.${i}.key`] = ['must not be blank']
    })
    if (!isTimeZone(draft.timeZone))
      errors.timeZone = [`${draft.timeZone} is not an IANA time zone (e.g. Europe/Berlin)`]
    if (trigger.type === 'Digest' && draft.frequency === 'Immediate')
      errors.frequency = ['a Digest trigger needs Daily or Weekly: a digest summarises a period']
    if (trigger.type === 'BudgetThreshold') {
      const unknown = await sources.budgets.unknownBudgets(who.organisationId, trigger.budgetIds ?? [])
      if (unknown.length)
        errors['trigger.budgetIds'] = unknown.map((id) => `${id} is not a budget of this organisation`)
      if (draft.frequency !== 'Immediate')
        errors.frequency = [
          'a BudgetThreshold trigger is sent once a period as soon as a threshold is crossed: Immediate',
        ]
    }
    if (trigger.type === 'PredictionExceeded' && draft.frequency !== 'Immediate')
      errors.frequency = ['a PredictionExceeded trigger is sent once per marker as soon as it is seen: Immediate']
    if (draft.frequency === 'Immediate') {
      for (const field of DIGEST_FIELDS)
        if (given[field] !== undefined) errors[field] = ['is only allowed with frequency Daily or Weekly']
    }
    if (draft.frequency === 'Daily' && given.digestWeekday !== undefined)
      errors.digestWeekday = ['is only allowed with frequency Weekly']
    if (Object.keys(errors).length) throw ApiError.invalid(errors)
    // Known tenancies and channels: now whether the principal may hold such a rule.
    if (tenancyIds === null) {
      if (!who.isOwner)
        throw ApiError.forbidden(
          'A rule of the whole organisation (scope.tenancyIds null) needs an organisation owner.',
        )
    } else {
      const short = tenancyIds.find((id) => !hasRole(who, id, 'Admin'))
      if (short) throw ApiError.forbidden(`A rule needs the Admin role on every tenancy it covers (${short} included).`)
    }
    const normalScope: RuleScope = {
      tenancyIds,
      tags,
      resourceGroup: scope.resourceGroup?.trim() || null,
      service: scope.service?.trim() || null,
    }
    return { ...draft, name, trigger, channelIds, scope: normalScope }
  }

  async function ownRule(who: Principal, ruleId: string): Promise<RuleDefinition> {
    const rule = await store.byId(ruleId)
    if (!rule || rule.organisationId !== who.organisationId) throw ApiError.notFound(`Notification rule ${ruleId}`)
    return rule
  }

  return {
    /** The tenancies a rule covers, for the permission check of its paths (null: unknown). */
    coverage: (ruleId: string) => store.coverage(ruleId),

    async list(who: Principal, paging: Paging): Promise<PageOf<RuleRecord>> {
      const { items, totalCount } = await store.list(who.organisationId, visibleTenancies(who), paging)
      return pageOf(items.map(toRecord), totalCount, paging)
    },

    /** The route checked that the principal sees the rule (every tenancy it covers). */
    async get(who: Principal, ruleId: string): Promise<RuleRecord> {
      return toRecord(await ownRule(who, ruleId))
    },

    async create(who: Principal, by: Acting, input: CreateRuleRequest): Promise<RuleRecord> {
      // A key that administers no tenancy can make no rule, whatever the request says.
      authoriseSomewhere(who, 'Admin')
      const now = clock.now().toISOString()
      const frequency: Frequency = input.frequency ?? (input.trigger.type === 'Digest' ? 'Daily' : 'Immediate')
      const rule = await validated(
        who,
        {
          id: ids.uuid(),
          organisationId: who.organisationId,
          name: input.name,
          enabled: input.enabled ?? true,
          channelIds: input.channelIds,
          scope: input.scope,
          trigger: input.trigger,
          frequency,
          digestHour: input.digestHour ?? 8,
          digestWeekday: input.digestWeekday ?? 'Monday',
          timeZone: input.timeZone ?? 'UTC',
          sendWhenQuiet: input.sendWhenQuiet ?? false,
          createdAt: now,
          updatedAt: now,
        },
        input,
      )
      await store.insert(rule, audited(by, 'notificationRule.created', rule))
      return toRecord(rule)
    },

    /** The route checked Admin on every tenancy the rule covers now; the rule as changed is checked here. */
    async update(who: Principal, by: Acting, ruleId: string, input: PatchRuleRequest): Promise<RuleRecord> {
      const current = await ownRule(who, ruleId)
      const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
      // A frequency changed to Immediate leaves the digest fields as they were: only the request's own are refused.
      const rule = await validated(
        who,
        { ...current, ...defined, updatedAt: clock.now().toISOString() } as RuleDefinition,
        input,
      )
      const changed = Object.keys(defined).sort().join(', ')
      await store.update(rule, audited(by, 'notificationRule.updated', rule, { changed }))
      return toRecord(rule)
    },

    /** The route checked Admin on every tenancy the rule covers. */
    async delete(who: Principal, by: Acting, ruleId: string): Promise<void> {
      const rule = await ownRule(who, ruleId)
      await store.delete(ruleId, audited(by, 'notificationRule.deleted', rule))
    },

    /**
     * Which of the last 30 days' anomalies the rule would have alerted about: the same scope and thresholds as
     * the alert run, one alert per incident, over the tenancies the principal sees. Nothing is saved.
     */
    async preview(who: Principal, input: PreviewRuleRequest): Promise<RulePreview> {
      const errors: FieldErrors = {}
      const trigger = normalisedTrigger(input.trigger, errors)
      const requested = input.scope.tenancyIds?.map((id) => id.toLowerCase()) ?? null
      if (requested) {
        const unknown = await sources.unknownTenancies(who.organisationId, requested)
        if (unknown.length)
          errors['scope.tenancyIds'] = unknown.map((id) => `${id} is not a tenancy of this organisation`)
      }
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      const to = toDay(clock.now())
      const from = addDays(to, -(PREVIEW_DAYS - 1))
      if (trigger.type !== 'AnomalyRaised') return { from, to, count: 0, items: [] }
      const visible = visibleTenancies(who)
      const all = (await sources.tenancies(who.organisationId)).map((t) => t.id)
      const tenancyIds = (requested ?? all).filter((id) => visible === 'all' || visible.includes(id))
      const scope: RuleScope = { ...input.scope, tenancyIds: requested }
      const records = await sources.anomalies.raisedIn(tenancyIds, from, to)
      const candidates = await sources.candidates(records, (scope.tags ?? []).length > 0)
      const alerts = matchAnomalies(scope, trigger, candidates)
      const names = new Map<string, Awaited<ReturnType<AlertSources['names']>>>()
      const items: RulePreview['items'] = []
      for (const alert of alerts) {
        const a = alert.lead
        let n = names.get(a.tenancyId)
        if (!n) {
          n = await sources.names(
            a.tenancyId,
            alerts.filter((x) => x.lead.tenancyId === a.tenancyId).map((x) => x.lead),
          )
          names.set(a.tenancyId, n)
        }
        items.push({
          anomalyId: a.id,
          tenancyId: a.tenancyId,
          incidentId: a.incidentId,
          matchedInIncident: alert.members.length,
          scope: scopeName(a, n),
          severity: a.severity,
          impact: Math.round(a.episode.totalImpact * 100) / 100,
          impactPercent: a.episode.totalImpactPercent,
          currency: a.currency,
          start: a.episode.start,
        })
      }
      return { from, to, count: items.length, items }
    },

    /**
     * Queues the digest of every enabled Daily or Weekly rule whose period is due, each period once however many
     * workers call this (a unique index), and only the latest when several were missed.
     */
    async scheduleDigests(now: Date): Promise<number> {
      let queued = 0
      for (const rule of await store.digestRules()) {
        if (!isTimeZone(rule.timeZone)) continue
        const period = latestDuePeriod(
          { ...rule, frequency: rule.frequency as 'Daily' | 'Weekly' },
          now,
          new Date(rule.createdAt),
        )
        if (!period) continue
        if ((await store.digestsQueued([rule.id], period.key)).size) continue
        const done = await store.queueDigest({
          id: ids.uuid(),
          organisationId: rule.organisationId,
          ruleId: rule.id,
          periodKey: period.key,
          requestedAt: now.toISOString(),
        })
        if (done) queued++
      }
      return queued
    },
  }
}
export type AlertService = ReturnType<typeof createAlertService>
