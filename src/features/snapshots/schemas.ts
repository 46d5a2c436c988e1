import { type Static, Type } from 'typebox'
import { Instant, Nullable, QueryBoolean, StringEnum, Uuid } from '../../platform/http/schemas.js'
import { SnapshotStatuses } from '../tenants/schemas.js'

export const BillingPeriodImport = Type.Object(
  {
    billingPeriod: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'The billing period, `YYYY-MM`.' }),
    files: Type.Array(Type.String(), { description: 'The files its rows came from.' }),
    rows: Type.Integer({ minimum: 0, description: 'Cost rows stored for it (summed per resource, day and meter).' }),
    replaced: Type.Boolean({ description: 'Whether an earlier version of the period was replaced.' }),
  },
  { description: 'One billing period an import replaced.' },
)
export type BillingPeriodImport = Static<typeof BillingPeriodImport>

export const ConformanceCount = Type.Object(
  {
    requirement: Type.String({ description: 'The FOCUS requirement checked.' }),
    description: Type.String(),
    failedRows: Type.Integer({ minimum: 0 }),
  },
  { description: 'One FOCUS requirement checked by an import.' },
)
export type ConformanceCount = Static<typeof ConformanceCount>

export const SnapshotRun = Type.Object(
  {
    id: Uuid,
    tenantId: Uuid,
    status: StringEnum(SnapshotStatuses),
    deepHistory: Type.Boolean(),
    requestedAt: Instant,
    startedAt: Nullable(Instant),
    completedAt: Nullable(Instant),
    periodStart: Nullable(Type.String({ format: 'date' })),
    periodEnd: Nullable(Type.String({ format: 'date' })),
    stats: Type.Object({
      subscriptions: Type.Integer({ minimum: 0 }),
      resourceGroups: Type.Integer({ minimum: 0 }),
      resources: Type.Integer({ minimum: 0 }),
      costRows: Type.Integer({ minimum: 0 }),
    }),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    progress: Nullable(
      Type.String({
        description:
          'While Running: what the run is doing (e.g. "collecting costs: 5200 rows so far"). An addition to the contract.',
      }),
    ),
    trigger: StringEnum(['Manual', 'Scheduled', 'Import'] as const, {
      description: 'What started the run. An addition to the contract.',
    }),
    periods: Type.Array(BillingPeriodImport, {
      description:
        "An import or pull of FOCUS files: each billing period it replaced, in order. Empty for a connector's collections. An addition to the contract.",
    }),
    conformance: Type.Array(ConformanceCount, {
      description:
        "An import or pull of FOCUS files: each checked FOCUS requirement and how many rows failed it (docs/focus.md lists them). Empty for a connector's collections. An addition to the contract.",
    }),
  },
  { $id: 'SnapshotRun', description: 'A cost and inventory collection run. Newest first in lists.' },
)
export type SnapshotRun = Static<typeof SnapshotRun>

export const TriggerSnapshotQuery = Type.Object({
  deepHistory: Type.Optional(QueryBoolean('Whether to collect the 30 days before today.')),
})
export const SnapshotParams = Type.Object({ tenantId: Uuid, snapshotId: Uuid })
export const UploadQuery = Type.Object({
  fileName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'The name the run gives the file (e.g. its own).' }),
  ),
})
