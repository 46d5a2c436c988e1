import { type Static, Type } from 'typebox'
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

export const AnomalySeverities = ['High', 'Medium', 'Low'] as const
export const AnomalyStatuses = ['Active', 'Acknowledged', 'Resolved'] as const
export const AnomalyScopeKinds = ['Tenant', 'Subscription', 'ResourceGroup', 'Resource', 'Service'] as const

export const AnomalyRecord = Type.Object(
  {
    id: Uuid,
    tenancyId: Uuid,
    scope: Type.Object({
      kind: StringEnum(AnomalyScopeKinds),
      subscriptionId: Nullable(Type.String()),
      resourceGroupName: Nullable(Type.String()),
      resourceId: Nullable(Uuid),
      serviceName: Nullable(Type.String()),
    }),
    dateRaised: DateOnly,
    severity: StringEnum(AnomalySeverities),
    status: StringEnum(AnomalyStatuses),
    expectedCost: Money,
    actualCost: Money,
    impact: Money,
    impactPercent: Type.Number(),
    currency: Currency,
    description: Type.String(),
    detectedAt: Instant,
    statusChangedAt: Nullable(Instant),
    statusChangedBy: Nullable(ActorRef),
  },
  { $id: 'Anomaly', description: 'A cost anomaly. Newest dateRaised first in lists.' },
)
export type AnomalyRecord = Static<typeof AnomalyRecord>

export const PatchAnomalyRequest = Type.Object(
  {
    status: StringEnum(AnomalyStatuses, {
      description: 'Acknowledged or Resolved; Active is set only by the service (a 400 from a caller).',
    }),
  },
  { $id: 'PatchAnomalyRequest', additionalProperties: false },
)
export type PatchAnomalyRequest = Static<typeof PatchAnomalyRequest>

export const AnomalyListQuery = Type.Object({
  ...PageQuery.properties,
  severity: Type.Optional(StringEnum(AnomalySeverities)),
  status: Type.Optional(StringEnum(AnomalyStatuses)),
  dateRaised: Type.Optional(DateOnly),
  tenancyId: Type.Optional(Uuid),
})
export const AnomalyParams = Type.Object({ anomalyId: Uuid })
