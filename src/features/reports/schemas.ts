import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'
import { Frequencies, Weekdays } from './constants.js'
import { REPORT_KIND_NAMES, REPORT_KINDS } from './kinds/index.js'

export const RunStatuses = ['Queued', 'Running', 'Succeeded', 'Failed'] as const
export type RunStatus = (typeof RunStatuses)[number]

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
  { $id: 'ReportRunDetail', description: 'A run with its data, up to 10,000 rows (empty until it succeeded).' },
)
export type ReportRunDetail = Static<typeof ReportRunDetail>

export const ReportSchedule = Type.Object(
  {
    frequency: StringEnum(Frequencies),
    hourUtc: Type.Integer({ minimum: 0, maximum: 23, description: 'The UTC hour from which the run is queued.' }),
    dayOfWeek: Type.Optional(StringEnum(Weekdays, { description: 'Weekly only (default Monday).' })),
    dayOfMonth: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 28,
        description: 'Monthly only (default 1); 28 at most, so every month has it.',
      }),
    ),
  },
  {
    $id: 'ReportSchedule',
    additionalProperties: false,
    description: 'Queues one run per day, week or month, at the hour given (UTC), exactly once however many workers.',
  },
)
export type ReportSchedule = Static<typeof ReportSchedule>

const Parameters = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "The kind's parameters. CostByDimension: `dimension` (Subscription, ResourceGroup, Service, Resource, Tag), " +
    '`tagKey` (with Tag), `top` (1..1000, optional), `period` (MonthToDate, LastMonth, Last30Days, Last90Days, ' +
    'Custom with `from` and `to`). TopResources: `count` (1..1000, default 20) and the period. AnomalySummary: ' +
    'the period. InsightSavings: none.',
})

export const ReportRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Nullable(Type.String({ maxLength: 2000 })),
    kind: StringEnum(REPORT_KIND_NAMES as [string, ...string[]], {
      description: Object.values(REPORT_KINDS)
        .map((k) => `${k.name}: ${k.description}`)
        .join(' '),
    }),
    parameters: Parameters,
    tenancyIds: Nullable(
      Type.Array(Uuid, { minItems: 1, maxItems: 500, description: 'null: an organisation-wide report.' }),
    ),
    schedule: Nullable(ref(ReportSchedule)),
    createdAt: Instant,
    lastRun: Nullable(ref(ReportRunRecord)),
  },
  { $id: 'Report' },
)
export type ReportRecord = Static<typeof ReportRecord>

const f = ReportRecord.properties
export const CreateReportRequest = Type.Object(
  {
    name: f.name,
    description: Type.Optional(f.description),
    kind: f.kind,
    parameters: Type.Optional(f.parameters),
    tenancyIds: f.tenancyIds,
    schedule: Type.Optional(Nullable(ref(ReportSchedule))),
  },
  { $id: 'CreateReportRequest', additionalProperties: false },
)
export type CreateReportRequest = Static<typeof CreateReportRequest>

export const PatchReportRequest = Type.Object(
  {
    name: Type.Optional(f.name),
    description: Type.Optional(f.description),
    parameters: Type.Optional(f.parameters),
    tenancyIds: Type.Optional(f.tenancyIds),
    schedule: Type.Optional(Nullable(ref(ReportSchedule))),
  },
  {
    $id: 'PatchReportRequest',
    additionalProperties: false,
    description: 'Absent fields are unchanged; `description: null` clears it, `schedule: null` removes the schedule.',
  },
)
export type PatchReportRequest = Static<typeof PatchReportRequest>

export const ReportParams = Type.Object({ reportId: Uuid })
export const ReportRunParams = Type.Object({ reportId: Uuid, runId: Uuid })
export const SignedFileParams = Type.Object({ runId: Uuid, file: Type.String({ maxLength: 100 }) })
export const SignedFileQuery = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20 })),
  sig: Type.Optional(Type.String({ maxLength: 100 })),
})
