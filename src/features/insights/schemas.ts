import { type Static, Type } from 'typebox'
import { INSIGHT_CATEGORIES, INSIGHT_SEVERITIES } from '../../analysis/insights/types.js'
import {
  ActorRef,
  Currency,
  Instant,
  Money,
  Nullable,
  PageQuery,
  QueryBoolean,
  StringEnum,
  Uuid,
} from '../../platform/http/schemas.js'

export const RecommendationCategories = INSIGHT_CATEGORIES
export const RecommendationSeverities = INSIGHT_SEVERITIES
export const RecommendationActionTypes = [
  'NotRelevant',
  'AcceptedRisk',
  'Implemented',
  'FalsePositive',
  'Snoozed',
  'AutoResolved',
] as const
export const InsightStatuses = ['Active', ...RecommendationActionTypes] as const

export const InsightRecord = Type.Object(
  {
    id: Uuid,
    tenancyId: Uuid,
    resourceId: Nullable(Uuid),
    resourceName: Nullable(Type.String()),
    subscriptionId: Nullable(Type.String()),
    resourceGroupName: Nullable(Type.String()),
    category: StringEnum(RecommendationCategories),
    severity: StringEnum(RecommendationSeverities),
    title: Type.String(),
    description: Type.String(),
    recommendation: Type.String(),
    estimatedMonthlySavings: Money,
    currency: Currency,
    status: StringEnum(InsightStatuses),
    snoozedUntil: Nullable(Instant),
    lastAction: Nullable(
      Type.Object({
        action: StringEnum(RecommendationActionTypes),
        at: Instant,
        by: ActorRef,
        snoozeDays: Nullable(Type.Integer()),
      }),
    ),
    detectedAt: Instant,
    updatedAt: Instant,
  },
  {
    $id: 'Insight',
    description:
      'A cost-reduction recommendation about one resource, one per resource and category. `status` is Active, ' +
      'the last action a person took, or AutoResolved (the condition is gone). Largest saving first in lists.',
    examples: [
      {
        id: '019a3f0c-5e21-7c4d-9a1b-2f6e8d0c4b11',
        tenancyId: '019a3e11-0b7f-7a52-8e3c-6d1f0a9b2c47',
        resourceId: '019a3e12-44c0-7d1e-b5a2-9c8f7e6d5a30',
        resourceName: 'disk-web-0001',
        subscriptionId: '4f1c2a7e-3b9d-4e61-a8c5-0d2b7f9e6c13',
        resourceGroupName: 'rg-web-prod',
        category: 'OrphanedResource',
        severity: 'Low',
        title: 'disk-web-0001 is orphaned',
        description:
          'disk-web-0001 is a managed disk attached to no virtual machine, and costs about USD 19.50 a month.',
        recommendation: 'Delete it if nothing needs it (snapshot a disk first if its data may matter).',
        estimatedMonthlySavings: 19.5,
        currency: 'USD',
        status: 'Snoozed',
        snoozedUntil: '2026-03-15T09:00:00.000Z',
        lastAction: {
          action: 'Snoozed',
          at: '2026-03-01T09:00:00.000Z',
          by: { type: 'ApiKey', id: '019a3e10-9f2d-7b3e-8c41-5a6b7c8d9e0f', name: 'finops' },
          snoozeDays: 14,
        },
        detectedAt: '2026-02-28T23:10:04.512Z',
        updatedAt: '2026-03-01T09:00:00.000Z',
      },
    ],
  },
)
export type InsightRecord = Static<typeof InsightRecord>

export const PatchInsightRequest = Type.Object(
  {
    action: StringEnum(RecommendationActionTypes, {
      description:
        'NotRelevant, AcceptedRisk, Implemented, FalsePositive or Snoozed; AutoResolved is set only by the service.',
    }),
    snoozeDays: Type.Optional(
      Nullable(
        Type.Union([Type.Integer({ minimum: 1, maximum: 365 }), Type.String({ pattern: '^[0-9]{1,3}$' })], {
          description:
            'Required with Snoozed, 1 to 365; an integer or a numeric string. Not allowed with other actions.',
        }),
      ),
    ),
  },
  {
    $id: 'PatchInsightRequest',
    additionalProperties: false,
    examples: [{ action: 'Snoozed', snoozeDays: 14 }, { action: 'Implemented' }],
  },
)
export type PatchInsightRequest = Static<typeof PatchInsightRequest>

export const InsightListQuery = Type.Object({
  ...PageQuery.properties,
  category: Type.Optional(StringEnum(RecommendationCategories)),
  severity: Type.Optional(StringEnum(RecommendationSeverities)),
  tenancyId: Type.Optional(Uuid),
  includeDismissed: Type.Optional(QueryBoolean('Whether to include insights whose status is not Active.')),
})
export const InsightParams = Type.Object({ insightId: Uuid })
