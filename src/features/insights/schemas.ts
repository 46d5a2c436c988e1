import { type Static, Type } from 'typebox'
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

export const RecommendationCategories = [
  'OrphanedResource',
  'StoppedVm',
  'OverProvisioned',
  'ScheduleOpportunity',
  'ReservedInstanceOpportunity',
  'UnusedResource',
  'HybridBenefitOpportunity',
  'ExpiredResource',
] as const
export const RecommendationSeverities = ['Critical', 'High', 'Medium', 'Low'] as const
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
  { $id: 'Insight', description: 'A cost-reduction recommendation. Largest saving first in lists.' },
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
  { $id: 'PatchInsightRequest', additionalProperties: false },
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
