import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { Instant, Nullable, StringEnum, TagPair, Uuid } from '../../platform/http/schemas.js'
import { Combines, Frequencies, MAX_SCOPE_TAGS, Severities, TriggerTypes, Weekdays } from './constants.js'

export const RuleScope = Type.Object(
  {
    tenancyIds: Nullable(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: 500,
        uniqueItems: true,
        description:
          "null: every tenancy of the organisation, now and later (owners only). Else the tenancies' Admins manage the rule.",
      }),
    ),
    tags: Type.Optional(
      Type.Array(TagPair, {
        maxItems: MAX_SCOPE_TAGS,
        description:
          "Tag filters, all of which must hold, with the markers' semantics: the key compared without letter case, " +
          'the value exactly. An anomaly matches when its scope (resource, resource group) carries the tags.',
      }),
    ),
    resourceGroup: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 90, description: 'A resource group name (any subscription).' })),
    ),
    service: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'A service name (meter category), e.g. "Virtual Machines".',
        }),
      ),
    ),
  },
  { $id: 'AlertRuleScope', additionalProperties: false },
)
export type RuleScope = Static<typeof RuleScope>

export const RuleTrigger = Type.Object(
  {
    type: StringEnum(TriggerTypes),
    minImpact: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          description: "AnomalyRaised: the episode's total impact, in its currency, at least this.",
        }),
      ),
    ),
    minImpactPercent: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          description: 'AnomalyRaised: the impact against the expected spend, in percent, at least this.',
        }),
      ),
    ),
    combine: Type.Optional(
      StringEnum(Combines, {
        description: 'AnomalyRaised: both thresholds (`all`) or either (`any`, the default) must hold.',
      }),
    ),
    minSeverity: Type.Optional(
      Nullable(StringEnum(Severities, { description: 'AnomalyRaised: at least this severity.' })),
    ),
    budgetIds: Type.Optional(
      Type.Array(Uuid, {
        maxItems: 100,
        uniqueItems: true,
        description: 'BudgetThreshold: the budgets watched (empty: all in scope).',
      }),
    ),
    minMonthlySavings: Type.Optional(
      Nullable(Type.Number({ minimum: 0, description: 'InsightFound: estimated monthly savings at least this.' })),
    ),
    minExcess: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          description:
            "PredictionExceeded: the observed change in monthly cost exceeds the marker's prediction by at least " +
            'this much per month, in its currency.',
        }),
      ),
    ),
    minExcessPercent: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          description: 'PredictionExceeded: the excess is at least this percent of the predicted change (absolute).',
        }),
      ),
    ),
  },
  {
    $id: 'AlertRuleTrigger',
    additionalProperties: false,
    description:
      'AnomalyRaised {minImpact, minImpactPercent, combine, minSeverity}; BudgetThreshold {budgetIds}; ' +
      "InsightFound {minMonthlySavings}; Digest {} (the period's top anomalies, budgets at risk and new insights); " +
      'PredictionExceeded {minExcess, minExcessPercent} (both must hold; Immediate only). ' +
      'Fields of another type are refused.',
  },
)
export type RuleTrigger = Static<typeof RuleTrigger>

export const RuleRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    enabled: Type.Boolean(),
    channelIds: Type.Array(Uuid, { minItems: 1, maxItems: 20, uniqueItems: true }),
    scope: ref(RuleScope),
    trigger: ref(RuleTrigger),
    frequency: StringEnum(Frequencies, {
      description:
        'Immediate: each event as the analysis finds it; Daily or Weekly: a digest of the period at digestHour.',
    }),
    digestHour: Type.Integer({
      minimum: 0,
      maximum: 23,
      description: 'The hour digests go out, in timeZone (default 8).',
    }),
    digestWeekday: StringEnum(Weekdays, { description: 'Weekly: the day digests go out (default Monday).' }),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone (default UTC).' }),
    sendWhenQuiet: Type.Boolean({ description: 'Digest: sent even when the period had nothing to report.' }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { $id: 'AlertRule', description: 'Which events go to which channels.' },
)
export type RuleRecord = Static<typeof RuleRecord>

const r = RuleRecord.properties
export const CreateRuleRequest = Type.Object(
  {
    name: r.name,
    enabled: Type.Optional(r.enabled),
    channelIds: r.channelIds,
    scope: ref(RuleScope),
    trigger: ref(RuleTrigger),
    frequency: Type.Optional(r.frequency),
    digestHour: Type.Optional(r.digestHour),
    digestWeekday: Type.Optional(r.digestWeekday),
    timeZone: Type.Optional(r.timeZone),
    sendWhenQuiet: Type.Optional(r.sendWhenQuiet),
  },
  { $id: 'CreateAlertRuleRequest', additionalProperties: false },
)
export type CreateRuleRequest = Static<typeof CreateRuleRequest>

export const PatchRuleRequest = Type.Object(
  {
    name: Type.Optional(r.name),
    enabled: Type.Optional(r.enabled),
    channelIds: Type.Optional(r.channelIds),
    scope: Type.Optional(ref(RuleScope)),
    trigger: Type.Optional(ref(RuleTrigger)),
    frequency: Type.Optional(r.frequency),
    digestHour: Type.Optional(r.digestHour),
    digestWeekday: Type.Optional(r.digestWeekday),
    timeZone: Type.Optional(r.timeZone),
    sendWhenQuiet: Type.Optional(r.sendWhenQuiet),
  },
  { $id: 'PatchAlertRuleRequest', additionalProperties: false, description: 'Absent fields are unchanged.' },
)
export type PatchRuleRequest = Static<typeof PatchRuleRequest>

export const RuleParams = Type.Object({ ruleId: Uuid })

export const PreviewRuleRequest = Type.Object(
  {
    name: Type.Optional(r.name),
    enabled: Type.Optional(r.enabled),
    channelIds: Type.Optional(Type.Array(Uuid, { maxItems: 20, uniqueItems: true })),
    scope: ref(RuleScope),
    trigger: ref(RuleTrigger),
    frequency: Type.Optional(r.frequency),
    digestHour: Type.Optional(r.digestHour),
    digestWeekday: Type.Optional(r.digestWeekday),
    timeZone: Type.Optional(r.timeZone),
    sendWhenQuiet: Type.Optional(r.sendWhenQuiet),
  },
  {
    $id: 'PreviewAlertRuleRequest',
    additionalProperties: false,
    description: 'A rule as it would be created, unsaved; name and channels may still be missing.',
  },
)
export type PreviewRuleRequest = Static<typeof PreviewRuleRequest>

export const RulePreviewItem = Type.Object(
  {
    anomalyId: Uuid,
    tenancyId: Uuid,
    incidentId: Uuid,
    matchedInIncident: Type.Integer({
      minimum: 1,
      description: 'The anomalies of its incident that matched: one alert says them all.',
    }),
    scope: Type.Object({
      kind: Type.String({ description: 'Tenant, Subscription, ResourceGroup, Resource or Service.' }),
      name: Type.String({ description: 'The scope as people name it.' }),
    }),
    severity: StringEnum(Severities),
    impact: Type.Number({ description: "The episode's total impact." }),
    impactPercent: Type.Number(),
    currency: Type.String(),
    start: Type.String({ format: 'date' }),
  },
  { $id: 'AlertRulePreviewItem', description: 'An alert the rule would have sent: the anomaly it leads with.' },
)

export const RulePreview = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    count: Type.Integer({ minimum: 0, description: 'How many alerts the rule would have sent.' }),
    items: Type.Array(ref(RulePreviewItem), { description: 'Largest impact first.' }),
  },
  {
    $id: 'AlertRulePreview',
    description:
      "Which of the last 30 days' anomalies (by day raised) would have alerted, one per incident, decided as the " +
      'alert run decides. Only AnomalyRaised rules alert about anomalies: any other trigger previews none. Only ' +
      'tenancies the caller sees are previewed.',
  },
)
export type RulePreview = Static<typeof RulePreview>
