import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import {
  ActorRef,
  Currency,
  DateOnly,
  Instant,
  Money,
  Nullable,
  PageQuery,
  StringEnum,
  Uuid,
} from '../../platform/http/schemas.js'
import { EventRecord } from '../events/schemas.js'
import {
  AnomalyFeedbacks,
  AnomalyScopeKinds,
  AnomalySeverities,
  AnomalyStatuses,
  IMPACT_PERCENT_MIN_DAYS,
} from './constants.js'
import { MAX_OBSERVED_DAYS } from './observed.js'

export type AnomalySeverity = (typeof AnomalySeverities)[number]
export type AnomalyStatus = (typeof AnomalyStatuses)[number]
export type AnomalyScopeKind = (typeof AnomalyScopeKinds)[number]
export type AnomalyFeedback = (typeof AnomalyFeedbacks)[number]

/** The rule written in the README and the OpenAPI document; `severityOf` in analysis/anomalies/detect.ts. */
export const SEVERITY_RULE =
  'Severity grows with the impact in units of the minimum impact (COSTWATCH_ANOMALY_MIN_IMPACT, 25 by default): ' +
  'High from 10 times the minimum with a change of at least 50% of the expected cost, Medium from 3 times the ' +
  'minimum, Low below.'

export const AnomalyScope = Type.Object(
  {
    kind: StringEnum(AnomalyScopeKinds),
    subscriptionId: Nullable(Type.String()),
    resourceGroupName: Nullable(Type.String()),
    resourceId: Nullable(Uuid),
    serviceName: Nullable(Type.String()),
  },
  {
    description:
      'What the cost belongs to. Subscription: subscriptionId. ResourceGroup: subscriptionId and ' +
      'resourceGroupName. Resource: resourceId (with its subscription and group). Service: serviceName, across ' +
      'the tenant. Tenant: the fields are null.',
  },
)
export type AnomalyScope = Static<typeof AnomalyScope>

export const AnomalyDriver = Type.Object(
  {
    scope: AnomalyScope,
    label: Type.String({ description: 'The child scope as people name it (subscription, group or resource name).' }),
    expectedCost: Money,
    actualCost: Money,
    change: Money,
    share: Type.Number({ description: "The child's change as a share of the anomaly's impact (1 = all of it)." }),
  },
  { description: 'A child scope that moved the same way as the anomaly on its day.' },
)
export type AnomalyDriver = Static<typeof AnomalyDriver>

export const AnomalyEpisode = Type.Object(
  {
    start: DateOnly,
    end: Nullable(
      Type.String({ format: 'date', description: 'The last anomalous day; null while the episode goes on.' }),
    ),
    ongoing: Type.Boolean({ description: 'The episode reaches the newest settled day: it may go on.' }),
    lastDay: DateOnly,
    days: Type.Integer({ minimum: 1, description: 'Days from start to lastDay, both included.' }),
    expectedCost: Money,
    actualCost: Money,
    totalImpact: Type.Number({ description: 'actualCost - expectedCost over the episode.' }),
    totalImpactPercent: Type.Number({ description: 'totalImpact in percent of expectedCost (100 when 0).' }),
    maxImpact: Type.Number({ description: "The impact of the episode's largest day (signed)." }),
  },
  {
    description:
      'Extension: the run of anomalous days the anomaly stands for, like the Impact of AWS Cost Anomaly ' +
      'Detection. Severity follows totalImpact.',
  },
)
export type AnomalyEpisode = Static<typeof AnomalyEpisode>

export const AnomalyRecord = Type.Object(
  {
    id: Uuid,
    tenancyId: Uuid,
    scope: AnomalyScope,
    dateRaised: DateOnly,
    severity: StringEnum(AnomalySeverities, { description: 'High, Medium or Low. See the description of Anomaly.' }),
    status: StringEnum(AnomalyStatuses),
    expectedCost: Money,
    actualCost: Money,
    impact: Type.Number({ description: 'actualCost - expectedCost: positive for a spike, negative for a drop.' }),
    impactPercent: Type.Number({ description: 'impact in percent of expectedCost (100 when nothing was expected).' }),
    currency: Currency,
    description: Type.String({
      description:
        'One sentence; names the child scope that drove it, when one did. Subscriptions by their display name.',
    }),
    drivers: Type.Array(AnomalyDriver, {
      description:
        'The child scopes (subscriptions of a tenant, groups of a subscription, resources of a group or of a ' +
        'service) that moved the same way on that day, largest share of the change first, at most 5. Empty for ' +
        'Resource.',
    }),
    relatedEvents: Type.Array(ref(EventRecord), {
      description:
        "The tenant's event markers from 3 days before dateRaised to the end of that day that are drawn on the " +
        "scope's cost chart (universal markers everywhere; tagged ones on tenant, subscription and service " +
        'scopes, and on a resource or group whose own tags match), oldest first.',
    }),
    detectedAt: Instant,
    statusChangedAt: Nullable(Instant),
    statusChangedBy: Nullable(ActorRef),
    episode: AnomalyEpisode,
    incidentId: Type.String({
      format: 'uuid',
      description:
        'Extension: the anomalies one root cause explains share an incident, headed by the broadest scope that ' +
        'says it best; incidentId is the id of that head anomaly (its own id when it heads the incident). A ' +
        "parent's episode joins a descendant's when the descendant drove at least 10% of the parent's change on " +
        'its first day (through children without an episode of their own) and the two start within a day of each ' +
        "other (a Service's children are its resources). The head is the " +
        'broadest scope (Tenant, Subscription, ResourceGroup, Service, Resource), then the largest total impact. ' +
        'Stable over re-runs of the same costs.',
    }),
    incidentSize: Type.Integer({
      minimum: 1,
      description: 'Extension: how many anomalies the incident holds (1 for an anomaly alone).',
    }),
    feedback: Nullable(
      StringEnum(AnomalyFeedbacks, {
        description:
          "Extension: a person's judgement. Expected: a planned change, adopted at once as the scope's new level. " +
          'NotAnAnomaly: a false alarm (counted per tenancy). Confirmed: a real anomaly.',
      }),
    ),
    feedbackAt: Nullable(Instant),
    feedbackBy: Nullable(ActorRef),
    // Extension: the newest Deployment marker among relatedEvents, on or before the episode's start.
    likelyCause: Nullable(ref(EventRecord)),
  },
  {
    $id: 'Anomaly',
    description:
      'A day whose cost departs from its expected cost, on one scope. The expected cost is the median of the ' +
      'same weekday over the previous 8 weeks of cleaned history; a day is an anomaly when its robust score is ' +
      'at least 4 and the change is at least the minimum impact (25 in the billing currency) and 20% of the ' +
      'expected cost (all configurable). A run of anomalous days, or a new level, raises one anomaly on its ' +
      `first day. ${SEVERITY_RULE} Newest dateRaised first in lists. Extensions: episode, incidentId, ` +
      'incidentSize, feedback ' +
      '(with feedbackAt and feedbackBy) and likelyCause, the newest Deployment marker among relatedEvents on or ' +
      "before the episode's start.",
    examples: [
      {
        id: '0193a8f2-7c4e-7a10-9d2b-3f5e6a7b8c9d',
        tenancyId: '0193a8f0-1111-7222-8333-444455556666',
        scope: {
          kind: 'ResourceGroup',
          subscriptionId: '11111111-aaaa-4aaa-8aaa-111111111111',
          resourceGroupName: 'web-prod',
          resourceId: null,
          serviceName: null,
        },
        dateRaised: '2026-03-04',
        severity: 'High',
        status: 'Active',
        expectedCost: 120.5,
        actualCost: 480.25,
        impact: 359.75,
        impactPercent: 298.55,
        currency: 'EUR',
        description:
          'Cost of resource group web-prod was 480.25 EUR against 120.50 EUR expected (+298.55%), driven by resource vm-web-3.',
        drivers: [
          {
            scope: {
              kind: 'Resource',
              subscriptionId: '11111111-aaaa-4aaa-8aaa-111111111111',
              resourceGroupName: 'web-prod',
              resourceId: '0193a8f1-2222-7333-8444-555566667777',
              serviceName: null,
            },
            label: 'vm-web-3',
            expectedCost: 40,
            actualCost: 395.1,
            change: 355.1,
            share: 0.987,
          },
        ],
        relatedEvents: [],
        detectedAt: '2026-03-05T02:10:00.000Z',
        statusChangedAt: null,
        statusChangedBy: null,
        episode: {
          start: '2026-03-04',
          end: '2026-03-05',
          ongoing: false,
          lastDay: '2026-03-05',
          days: 2,
          expectedCost: 241,
          actualCost: 830.5,
          totalImpact: 589.5,
          totalImpactPercent: 244.61,
          maxImpact: 359.75,
        },
        incidentId: '0193a8f2-7c4e-7a10-9d2b-3f5e6a7b8c9d',
        incidentSize: 3,
        feedback: null,
        feedbackAt: null,
        feedbackBy: null,
        likelyCause: null,
      },
    ],
  },
)
export type AnomalyRecord = Static<typeof AnomalyRecord>

export const PatchAnomalyRequest = Type.Object(
  {
    status: Type.Optional(
      StringEnum(AnomalyStatuses, {
        description: 'Acknowledged or Resolved; Active is set only by the service (a 400 from a caller).',
      }),
    ),
    feedback: Type.Optional(
      Nullable(
        StringEnum(AnomalyFeedbacks, {
          description: 'Extension: Expected, NotAnAnomaly or Confirmed; null clears it.',
        }),
      ),
    ),
  },
  {
    $id: 'PatchAnomalyRequest',
    additionalProperties: false,
    minProperties: 1,
    description:
      'Any status may move to Acknowledged or Resolved. Repeating the current status is a 200 that changes ' +
      'nothing (statusChangedAt stays). Active is a 400. Extension: feedback, alone or beside status.',
    examples: [{ status: 'Acknowledged' }, { feedback: 'Expected' }],
  },
)
export type PatchAnomalyRequest = Static<typeof PatchAnomalyRequest>

export const AnomalyListQuery = Type.Object({
  ...PageQuery.properties,
  severity: Type.Optional(StringEnum(AnomalySeverities)),
  status: Type.Optional(StringEnum(AnomalyStatuses)),
  dateRaised: Type.Optional(DateOnly),
  from: Type.Optional(
    Type.String({ format: 'date', description: 'Extension: first UTC day raised, inclusive (YYYY-MM-DD).' }),
  ),
  to: Type.Optional(
    Type.String({ format: 'date', description: 'Extension: last UTC day raised, inclusive; not before `from`.' }),
  ),
  tenancyId: Type.Optional(Uuid),
  scope: Type.Optional(
    Type.String({
      description:
        "Extension: the anomalies drawn on one cost chart, in the grammar of the costs' `scope`. `tenant`: all of " +
        "them; `subscription:{subscriptionId}`: the subscription's, its groups' and its resources'; " +
        "`resourceGroup:{name}` (name case-insensitive): the group's and its resources'; " +
        "`resource:{resourceId}`: the resource's. Meant with tenancyId.",
    }),
  ),
  subscriptionId: Type.Optional(
    Type.String({ description: 'Extension: with a resourceGroup scope, the subscription the group is in.' }),
  ),
  incidentId: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Extension: the anomalies of one incident (the id of the anomaly heading it), the head included.',
    }),
  ),
  range: Type.Optional(
    StringEnum(['raised', 'active'] as const, {
      description:
        'Extension: what `from` and `to` match. `raised` (the default): the day an anomaly was raised; `active`: ' +
        'its episode overlaps the range (raised by `to`, and ongoing or last anomalous on or after `from`), so an ' +
        "episode begun before a chart's range, or an incident whose head was raised before it, is still found.",
    }),
  ),
  view: Type.Optional(
    StringEnum(['anomalies', 'incidents'] as const, {
      description:
        'Extension: `incidents` lists only the anomalies that head an incident (one item per incident, with ' +
        'incidentSize); `anomalies` (the default) lists every anomaly.',
    }),
  ),
})
export type AnomalyListQuery = Static<typeof AnomalyListQuery>
export const AnomalyParams = Type.Object({ anomalyId: Uuid })
export const TenantParams = Type.Object({ tenantId: Uuid }, { additionalProperties: false })

export const AnomalyFeedbackCounts = Type.Object(
  {
    tenantId: Uuid,
    anomalies: Type.Integer({ minimum: 0, description: "The tenancy's anomalies, with feedback or without." }),
    expected: Type.Integer({ minimum: 0, description: 'Anomalies with feedback Expected.' }),
    notAnAnomaly: Type.Integer({ minimum: 0, description: 'Anomalies with feedback NotAnAnomaly: false alarms.' }),
    confirmed: Type.Integer({ minimum: 0, description: 'Anomalies with feedback Confirmed.' }),
  },
  {
    $id: 'AnomalyFeedbackCounts',
    description:
      "Extension: the people's feedback on a tenancy's anomalies. confirmed / (confirmed + notAnAnomaly) is " +
      'the precision detection has in use.',
    examples: [
      { tenantId: '0193a8f0-1111-7222-8333-444455556666', anomalies: 40, expected: 3, notAnAnomaly: 2, confirmed: 9 },
    ],
  },
)
export type AnomalyFeedbackCounts = Static<typeof AnomalyFeedbackCounts>

export const ImpactQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 90, default: 7, description: 'Days on each side of the marker, 1 to 90.' }),
  ),
})
export const ImpactParams = Type.Object({ tenantId: Uuid, eventId: Uuid }, { additionalProperties: false })

const ImpactWindow = Type.Object({
  from: DateOnly,
  to: DateOnly,
  cost: Money,
  dailyAverage: Nullable(
    Type.Number({
      description:
        'Extension: the average cost of the days of the window the tenant holds, settled (see daysBefore and ' +
        'daysAfter); null when it holds none.',
    }),
  ),
})

export const EventCostImpact = Type.Object(
  {
    eventId: Uuid,
    tenantId: Uuid,
    scope: Type.String({
      description: '`tenant` for a universal marker; `tag:{key}={value}` for the resources a tagged marker is on.',
    }),
    days: Type.Integer(),
    currency: Currency,
    before: ImpactWindow,
    after: ImpactWindow,
    daysBefore: Type.Integer({
      minimum: 0,
      description:
        'Extension: days of the before window that the averages compare: settled days on which the tenant has ' +
        'costs collected (none before its first day of cost).',
    }),
    daysAfter: Type.Integer({
      minimum: 0,
      description:
        'Extension: settled days of the after window so far (fewer than `days` while it is not over, 0 on the ' +
        "marker's own day).",
    }),
    dailyChange: Nullable(
      Type.Number({
        description: 'Extension: after.dailyAverage - before.dailyAverage; null when either side holds no day.',
      }),
    ),
    change: Type.Number({
      description:
        'The change over `days` days at the daily averages: (after.dailyAverage - before.dailyAverage) * days, ' +
        'which is after.cost - before.cost once both windows are over and held in full; 0 while a side holds no ' +
        'day. Like with like: a window still filling in is never compared with a whole one.',
    }),
    changePercent: Nullable(
      Type.Number({
        description:
          `dailyChange in percent of before.dailyAverage; null before ${IMPACT_PERCENT_MIN_DAYS} settled days ` +
          'after the marker (daysAfter), or when nothing was spent before.',
      }),
    ),
    complete: Type.Boolean({ description: 'false while the after window reaches past today (costs still to come).' }),
    anomalies: Type.Array(ref(AnomalyRecord), {
      description: 'Anomalies on the scope raised from before.from to after.to, newest first, at most 100.',
    }),
    predicted: Nullable(
      Type.Object(
        {
          monthlyDelta: Type.Number({ description: "The marker's predicted change in monthly cost." }),
          currency: Currency,
        },
        { description: "Extension: the marker's prediction (see the marker's `prediction`); null without one." },
      ),
    ),
    observed: Type.Object(
      {
        monthlyDelta: Nullable(
          Type.Number({
            description:
              'The observed change in monthly cost, in `currency`: (cost of the days after - cost of the days ' +
              'before) / days x 30.4375 (the mean month). Null while no settled day follows the marker.',
          }),
        ),
        days: Type.Integer({
          minimum: 0,
          maximum: MAX_OBSERVED_DAYS,
          description:
            "Settled days after the marker's day compared (at most 28; the marker's own day is on neither side), " +
            'against as many days before it holding each weekday as often: the days just before the marker for ' +
            'whole weeks, else the after days moved back by whole weeks.',
        }),
      },
      { description: "Extension: the change seen on the marker's scope, to check a prediction against." },
    ),
  },
  {
    $id: 'EventCostImpact',
    description:
      "Cost on the marker's own chart scope before and after it: the N whole UTC days before the marker's day, " +
      "and N days from the marker's day on. Every charge category counts. `before.cost` and `after.cost` are the " +
      'sums of the days collected so far; the change compares daily averages over the settled days each side ' +
      'holds, so that three days after a marker are not set against seven before it.',
  },
)
export type EventCostImpact = Static<typeof EventCostImpact>
