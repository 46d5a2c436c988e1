import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { CostSummary, Currency, Instant, Nullable, PageQuery, StringEnum, Uuid } from '../../platform/http/schemas.js'
import { RESOURCE_SORTS } from './store.js'

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
    subscriptionId: Type.String({
      description: 'The subscription, or for a FOCUS tenant of another cloud the AWS account or Google Cloud project.',
    }),
    resourceGroupName: Nullable(
      Type.String({
        description:
          'Extension (a departure: the specification makes it a string): null for a resource of a cloud without ' +
          'resource groups (AWS, Google Cloud), whose `armId` is its own id (an ARN, a Google resource name).',
      }),
    ),
    resourceGroupId: Nullable(Uuid),
    tags: Tags,
    sku: Nullable(Type.String()),
    state: Nullable(Type.String()),
    firstSeenAt: Instant,
    lastSeenAt: Instant,
    costs: CostSummary,
    removal: Type.Optional(
      Type.Object(
        {
          lastCostDate: Type.String({
            format: 'date',
            description: 'The last UTC day the resource had cost (often billed in part).',
          }),
          basis: StringEnum(['NotInLatestCollection', 'NotInLaterImports'], {
            description:
              '`NotInLatestCollection`: the latest inventory collection no longer lists it (deleted at the ' +
              'provider). `NotInLaterImports`: its FOCUS rows stop while the imports cover later days.',
          }),
        },
        {
          description:
            'Extension: present when the resource was removed. Its drop to zero is this information, never a drop ' +
            'anomaly on it or on the scopes above it (its group, subscription, service and the tenant).',
        },
      ),
    ),
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
const EXTENSION = 'An addition to the specification.'

/** `tag=key:value` or `tag=key`, repeatable: Azure's limits are 512 characters for a key and 256 for a value. */
const TagQuery = Type.Optional(
  Type.Array(Type.String({ minLength: 1, maxLength: 512 + 1 + 256 }), {
    maxItems: 10,
    description:
      `${EXTENSION} \`key:value\` (the key ends at the first colon) keeps rows with that tag, \`key\` alone rows ` +
      'that have the key whatever its value; repeat it (up to 10) and every one must match. The key matches ' +
      'ignoring case (as Azure tag names do), the value exactly.',
  }),
)

export const ResourceGroupListQuery = Type.Object({
  ...PageQuery.properties,
  subscriptionId: Type.Optional(Type.String()),
  tag: TagQuery,
})
export const ResourceListQuery = Type.Object({
  ...PageQuery.properties,
  subscriptionId: Type.Optional(Type.String({ description: 'Exact subscription id.' })),
  resourceGroupId: Type.Optional(Type.String({ description: "The group's id (UUID) or its ARM id." })),
  armResourceName: Type.Optional(Type.String({ description: 'Resource name, case-insensitive exact.' })),
  resourceType: Type.Optional(
    Type.String({ description: 'e.g. Microsoft.Compute/virtualMachines, case-insensitive.' }),
  ),
  tag: TagQuery,
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: `${EXTENSION} A part of the name, ignoring case (\`web\` finds vm-Web-01); blank is refused.`,
    }),
  ),
  sort: Type.Optional(
    StringEnum(RESOURCE_SORTS, {
      description:
        `${EXTENSION} \`name\` (the default), \`-name\` (Z to A), \`resourceType\` (then name), ` +
        '`-firstSeenAt` (newest first) or `-last30Days` (the most expensive over the last 30 days first, in the ' +
        "tenant's billing currency, then by name); ties by id.",
    }),
  ),
})

export const TagKeyRecord = Type.Object(
  {
    key: Type.String({
      description: 'The key in the spelling most resources use; other spellings count as the same key.',
    }),
    resourceCount: Type.Integer({ minimum: 0, description: 'Resources carrying the key, in any spelling.' }),
    valueCount: Type.Integer({ minimum: 0, description: 'Distinct values of the key, all of them.' }),
    values: Type.Array(Type.String(), {
      description: 'Distinct values, most used first, then by text: up to 50, or up to 1,000 when `key` asks for it.',
    }),
    valuesTruncated: Type.Boolean({ description: 'True when the key has more values than `values` holds.' }),
  },
  {
    $id: 'TagKey',
    description: "One tag key of the tenant's resources with its distinct values (exact; keys are case-insensitive).",
    examples: [
      {
        key: 'environment',
        resourceCount: 212,
        valueCount: 3,
        values: ['prod', 'staging', 'dev'],
        valuesTruncated: false,
      },
    ],
  },
)
export type TagKeyRecord = Static<typeof TagKeyRecord>

export const TenantTags = Type.Object(
  {
    tenantId: Uuid,
    keys: Type.Array(ref(TagKeyRecord), {
      maxItems: 200,
      description: 'Most used first (resources carrying the key), then by key; at most 200.',
    }),
    keysTruncated: Type.Boolean({ description: 'True when the tenant has more than 200 keys.' }),
  },
  {
    $id: 'TenantTags',
    description:
      "The tag keys of the tenant's resources, as the latest snapshot saw them, with their distinct values: " +
      'what a tag filter of an event marker can name.',
    examples: [
      {
        tenantId: '0193a8f0-1111-7222-8333-444455556666',
        keys: [
          {
            key: 'environment',
            resourceCount: 212,
            valueCount: 3,
            values: ['prod', 'staging', 'dev'],
            valuesTruncated: false,
          },
          { key: 'team', resourceCount: 198, valueCount: 2, values: ['payments', 'search'], valuesTruncated: false },
        ],
        keysTruncated: false,
      },
    ],
  },
)
export type TenantTags = Static<typeof TenantTags>

export const TagListQuery = Type.Object({
  key: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'Only this key (any letter case), with up to 1,000 of its values.',
      examples: ['environment'],
    }),
  ),
})

const ResourceTypeCount = Type.Object({
  resourceType: Type.String({ description: 'e.g. Microsoft.Compute/virtualMachines.' }),
  resourceCount: Type.Integer({ minimum: 1 }),
})
export const ResourceTypeList = Type.Object(
  { items: Type.Array(ResourceTypeCount, { description: 'By type, ignoring case.' }) },
  { $id: 'ResourceTypeList' },
)
