import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { Currency, DateOnly, Instant, Nullable, StringEnum, TagPair, Uuid } from '../../platform/http/schemas.js'

export const BUDGET_PERIODS = ['Monthly', 'Quarterly', 'Annually', 'Custom'] as const
export const COST_BASES = ['Effective', 'Billed'] as const
export const THRESHOLD_KINDS = ['Percent', 'Amount'] as const
export const THRESHOLD_BASES = ['Actual', 'Forecast'] as const
export const THRESHOLD_STATES = ['Ok', 'Alarm'] as const
export const MAX_THRESHOLDS = 10

const Amount = Type.Number({ exclusiveMinimum: 0, description: 'In the budget’s currency.' })

export const BudgetScope = Type.Object(
  {
    tenancyIds: Nullable(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: 500,
        uniqueItems: true,
        description:
          "null: every tenancy of the organisation (owners only). Else the tenancies' Admins manage the budget.",
      }),
    ),
    tags: Type.Optional(
      Type.Array(TagPair, {
        maxItems: 10,
        description:
          "Only the costs of resources carrying every tag, with the markers' semantics (the key without letter " +
          'case, the value exactly).',
      }),
    ),
    resourceGroup: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 90 }))),
    service: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  },
  { $id: 'BudgetScope', additionalProperties: false },
)
export type BudgetScope = Static<typeof BudgetScope>

export const BudgetThreshold = Type.Object(
  {
    kind: StringEnum(THRESHOLD_KINDS, { description: 'Percent of the period’s amount, or an amount.' }),
    value: Type.Number({ exclusiveMinimum: 0 }),
    basis: StringEnum(THRESHOLD_BASES, {
      description: 'Actual: the spend so far crosses it; Forecast: the forecast at the period’s end does.',
    }),
  },
  { $id: 'BudgetThreshold', additionalProperties: false },
)
export type BudgetThreshold = Static<typeof BudgetThreshold>

export const CustomPeriod = Type.Object(
  { from: DateOnly, to: DateOnly, amount: Amount },
  { additionalProperties: false },
)

export const BudgetStatus = Type.Object(
  {
    periodFrom: DateOnly,
    periodTo: DateOnly,
    amount: Type.Number(),
    actual: Type.Number({ description: 'The spend from the period’s first day to the last day with costs.' }),
    forecast: Type.Object({ expected: Type.Number(), lower: Type.Number(), upper: Type.Number() }),
    percent: Type.Number({ description: 'actual against amount, in percent.' }),
    breachDate: Nullable(
      Type.String({
        format: 'date',
        description: 'The day the spend, actual then forecast, reaches the amount at the current run-rate; or null.',
      }),
    ),
    thresholds: Type.Array(
      Type.Object({
        kind: StringEnum(THRESHOLD_KINDS),
        value: Type.Number(),
        basis: StringEnum(THRESHOLD_BASES),
        state: StringEnum(THRESHOLD_STATES),
        since: Nullable(Type.String({ format: 'date', description: 'The day it alarmed in this period.' })),
      }),
    ),
  },
  {
    $id: 'BudgetStatus',
    description: 'The current period’s figures as of today (a budget’s status is null when it has no period today).',
  },
)

export const BudgetRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scope: ref(BudgetScope),
    period: StringEnum(BUDGET_PERIODS),
    amount: Nullable(Amount),
    periods: Nullable(Type.Array(CustomPeriod)),
    currency: Currency,
    startDate: DateOnly,
    costBasis: StringEnum(COST_BASES, {
      description:
        'Effective (amortised, the default) or Billed. Costs are collected amortised: until a cost source records ' +
        'billed cost, Billed reads the same costs.',
    }),
    thresholds: Type.Array(ref(BudgetThreshold), { maxItems: MAX_THRESHOLDS }),
    status: Nullable(ref(BudgetStatus)),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { $id: 'Budget' },
)
export type BudgetRecord = Static<typeof BudgetRecord>

export const CreateBudgetRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scope: ref(BudgetScope),
    period: StringEnum(BUDGET_PERIODS),
    amount: Type.Optional(Amount),
    periods: Type.Optional(Type.Array(CustomPeriod, { minItems: 1, maxItems: 60 })),
    currency: Currency,
    startDate: Type.Optional(DateOnly),
    costBasis: Type.Optional(StringEnum(COST_BASES)),
    thresholds: Type.Optional(Type.Array(ref(BudgetThreshold), { maxItems: MAX_THRESHOLDS })),
  },
  {
    $id: 'CreateBudgetRequest',
    additionalProperties: false,
    description: '`period: Custom` takes `periods` instead of `amount`; the others take `amount`.',
  },
)
export type CreateBudgetRequest = Static<typeof CreateBudgetRequest>

export const PatchBudgetRequest = Type.Partial(CreateBudgetRequest, {
  $id: 'PatchBudgetRequest',
  additionalProperties: false,
  description: 'Absent fields are unchanged; the budget as changed is checked as at creation.',
})
export type PatchBudgetRequest = Static<typeof PatchBudgetRequest>

export const BudgetParams = Type.Object({ budgetId: Uuid })
