import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const RunStatuses = ['Queued', 'Running', 'Succeeded', 'Failed'] as const

export const ReportRunRecord = Type.Object(
  {
    id: Uuid,
    reportId: Uuid,
    status: StringEnum(RunStatuses),
    requestedAt: Instant,
    startedAt: Nullable(Instant),
    completedAt: Nullable(Instant),
    periodStart: Nullable(Type.String({ format: 'date' })),
    periodEnd: Nullable(Type.String({ format: 'date' })),
    rowCount: Nullable(Type.Integer({ minimum: 0 })),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  },
  { $id: 'ReportRun' },
)
export type ReportRunRecord = Static<typeof ReportRunRecord>

export const ReportRunDetail = Type.Object(
  {
    ...ReportRunRecord.properties,
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Null()]))),
    truncated: Type.Boolean({ description: 'True when the run has more than the 10,000 rows shown here.' }),
  },
  { $id: 'ReportRunDetail', description: 'A run with its data, up to 10,000 rows.' },
)

export const ReportRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Nullable(Type.String()),
    kind: Type.String(),
    parameters: Type.Record(Type.String(), Type.Unknown()),
    tenancyIds: Nullable(Type.Array(Uuid, { description: 'null: an organisation-wide report.' })),
    createdAt: Instant,
    lastRun: Nullable(ref(ReportRunRecord)),
  },
  { $id: 'Report' },
)
export type ReportRecord = Static<typeof ReportRecord>

export const ReportParams = Type.Object({ reportId: Uuid })
export const ReportRunParams = Type.Object({ reportId: Uuid, runId: Uuid })
