import { type Static, Type } from 'typebox'
import { CostSummary, Currency, Instant, Nullable, PageQuery, Uuid } from '../../platform/http/schemas.js'

const Tags = Type.Record(Type.String(), Type.String(), { description: 'Tags as the provider reports them.' })

export const SubscriptionRecord = Type.Object(
  {
    subscriptionId: Type.String(),
    tenantId: Uuid,
    displayName: Type.String(),
    state: Type.String({ description: 'Enabled, Disabled, Warned, PastDue or Deleted, as the provider reports it.' }),
    currency: Currency,
    resourceGroupCount: Type.Integer({ minimum: 0 }),
    resourceCount: Type.Integer({ minimum: 0 }),
    costs: CostSummary,
  },
  { $id: 'Subscription' },
)
export type SubscriptionRecord = Static<typeof SubscriptionRecord>

export const ResourceGroupRecord = Type.Object(
  {
    id: Uuid,
    armId: Type.String(),
    name: Type.String(),
    subscriptionId: Type.String(),
    tenantId: Uuid,
    location: Nullable(Type.String()),
    tags: Tags,
    resourceCount: Type.Integer({ minimum: 0 }),
    costs: CostSummary,
  },
  { $id: 'ResourceGroup' },
)
export type ResourceGroupRecord = Static<typeof ResourceGroupRecord>

export const ResourceRecord = Type.Object(
  {
    id: Uuid,
    armId: Type.String(),
    name: Type.String(),
    resourceType: Type.String(),
    location: Nullable(Type.String()),
    subscriptionId: Type.String(),
    resourceGroupName: Type.String(),
    resourceGroupId: Uuid,
    tags: Tags,
    sku: Nullable(Type.String()),
    state: Nullable(Type.String()),
    firstSeenAt: Instant,
    lastSeenAt: Instant,
    costs: CostSummary,
  },
  { $id: 'Resource' },
)
export type ResourceRecord = Static<typeof ResourceRecord>

export const SubscriptionParams = Type.Object({
  tenantId: Uuid,
  subscriptionId: Type.String({ minLength: 1, maxLength: 200 }),
})
export const ResourceGroupParams = Type.Object({
  tenantId: Uuid,
  resourceGroupName: Type.String({ minLength: 1, maxLength: 90 }),
})
export const ResourceGroupGetQuery = Type.Object({
  subscriptionId: Type.Optional(
    Type.String({ description: 'Chooses among groups of this name in several subscriptions.' }),
  ),
})
export const ResourceParams = Type.Object({ tenantId: Uuid, resourceId: Uuid })
export const ResourceGroupListQuery = Type.Object({
  ...PageQuery.properties,
  subscriptionId: Type.Optional(Type.String()),
})
export const ResourceListQuery = Type.Object({
  ...PageQuery.properties,
  subscriptionId: Type.Optional(Type.String({ description: 'Exact subscription id.' })),
  resourceGroupId: Type.Optional(Type.String({ description: "The group's id (UUID) or its ARM id." })),
  armResourceName: Type.Optional(Type.String({ description: 'Resource name, case-insensitive exact.' })),
  resourceType: Type.Optional(
    Type.String({ description: 'e.g. Microsoft.Compute/virtualMachines, case-insensitive.' }),
  ),
})
