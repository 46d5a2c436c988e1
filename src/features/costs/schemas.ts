import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { Currency, DateOnly, Money, Nullable, Uuid } from '../../platform/http/schemas.js'
import { EventRecord } from '../events/schemas.js'
import { MAX_GROUPS } from './constants.js'

const Point = Type.Object({ date: DateOnly, cost: Money })

export const CostSeries = Type.Object(
  {
    scope: Type.String(),
    from: DateOnly,
    to: DateOnly,
    currency: Currency,
    groupBy: Nullable(Type.String()),
    points: Type.Array(Point, {
      description: "The scope's total per UTC day: every day of the range, 0 where nothing was billed.",
    }),
    groups: Type.Optional(
      Type.Array(Type.Object({ key: Type.String(), label: Type.String(), cost: Money, points: Type.Array(Point) }), {
        description: `With groupBy: the groups, largest cost first; past ${MAX_GROUPS}, the rest are summed into one last group with key "(other)". Costs without the grouping (no resource group, no such tag) are in the group with key "".`,
      }),
    ),
    markers: Type.Array(ref(EventRecord), { description: 'The event markers visible on this chart, oldest first.' }),
    settledThrough: Nullable(
      Type.String({
        format: 'date',
        description:
          "Extension: the last day every recently active source of the tenant's costs has settled (UTC day). Later " +
          "days are preliminary: still being restated (a collection's newest days) or not yet covered by every " +
          'source, and anomaly detection does not judge them. Null when no source has recorded what it settled.',
      }),
    ),
  },
  {
    $id: 'CostSeries',
    description:
      'Daily amortised cost of one chart scope, with the event markers drawn on it. Every charge category counts (usage, purchases, taxes, credits, adjustments and corrections), as on the bill.',
  },
)
export type CostSeries = Static<typeof CostSeries>

export const CostSeriesQuery = Type.Object({
  scope: Type.Optional(
    Type.String({
      default: 'tenant',
      description: '`tenant`, `subscription:{subscriptionId}`, `resourceGroup:{name}` or `resource:{resourceId}`.',
    }),
  ),
  subscriptionId: Type.Optional(
    Type.String({ description: 'Chooses among resource groups of one name in several subscriptions.' }),
  ),
  from: Type.Optional(
    Type.String({ format: 'date', description: 'First UTC day, inclusive; default 29 days before `to`.' }),
  ),
  to: Type.Optional(Type.String({ format: 'date', description: 'Last UTC day, inclusive; default today.' })),
  groupBy: Type.Optional(
    Type.String({
      pattern: '^(service|resourceGroup|resource|tag:.+)$',
      description: '`service`, `resourceGroup`, `resource` or `tag:KEY`.',
    }),
  ),
})
export const CostParams = Type.Object({ tenantId: Uuid })
