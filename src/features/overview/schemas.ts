import { type Static, Type } from 'typebox'
import { Currency, DateOnly, Instant, Money, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'
import { AnomalySeverities } from '../anomalies/public.js'

export const OverviewQuery = Type.Object(
  {
    tenancyId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'Only this tenancy; by default every tenancy the user may see. One they cannot see is a 404.',
      }),
    ),
  },
  { additionalProperties: false },
)
export type OverviewQuery = Static<typeof OverviewQuery>

const Window = Type.Object({
  from: DateOnly,
  to: DateOnly,
  days: Type.Integer({ minimum: 0 }),
  amount: Money,
})

const Interval = Type.Object({ expected: Money, lower: Money, upper: Money })

export const TenancyForecast = Type.Object({
  tenancyId: Uuid,
  name: Type.String(),
  status: StringEnum(['Forecast', 'NotEnoughHistory'] as const, {
    description: 'NotEnoughHistory: fewer settled days of usage cost than requiredDays; no forecast.',
  }),
  historyDays: Type.Integer({ minimum: 0, description: 'Settled days of usage cost the forecast learnt from.' }),
  requiredDays: Type.Integer({ minimum: 1 }),
  monthEnd: Nullable(Interval),
})

const EventMarker = Type.Object({
  id: Uuid,
  title: Type.String(),
  category: Type.String(),
  occurredAt: Instant,
})

export const MoverKinds = ['Subscription', 'ResourceGroup', 'Service'] as const

export const Mover = Type.Object({
  tenancyId: Uuid,
  tenancyName: Type.String(),
  kind: StringEnum(MoverKinds),
  /** The series' key: the subscription id, `{subscriptionId}/{group lower-cased}` or the service name. */
  key: Type.String(),
  name: Type.String({ description: 'The subscription, resource group or service as people name it.' }),
  subscriptionId: Nullable(
    Type.String({ description: "The subscription of a resource group; a subscription's own id." }),
  ),
  from: DateOnly,
  to: DateOnly,
  previousFrom: DateOnly,
  previousTo: DateOnly,
  dailyRate: Money,
  previousDailyRate: Money,
  change: Money,
  changePercent: Nullable(Type.Number({ description: 'Null when the week before had no cost.' })),
  markers: Type.Array(EventMarker, {
    description: 'Likely causes: the event markers visible on the scope from previousFrom through to.',
  }),
  link: Type.String({ description: "The web interface's explorer: the scope over both weeks." }),
})

export const CurrencyOverview = Type.Object({
  currency: Currency,
  monthToDate: Type.Object(
    {
      ...Window.properties,
      preliminaryFrom: Type.String({
        format: 'date',
        description:
          'The first day of the window some source has not settled yet (its cost may still change); today at the ' +
          'latest, which is never complete.',
      }),
      previous: Window,
      change: Money,
      changePercent: Nullable(Type.Number({ description: 'Null when the same days of last month had no cost.' })),
    },
    {
      description:
        'Every charge from the first of the month through today (preliminary days included), against the same ' +
        'number of days from the first of last month (all of last month when it is shorter).',
    },
  ),
  forecast: Type.Object(
    {
      date: DateOnly,
      /** The sum over the tenancies with a forecast, with its 80% interval; null when none has one. */
      total: Nullable(Interval),
      tenancies: Type.Array(TenancyForecast),
    },
    {
      description:
        "The month-end cost: each tenancy's forecast as its cost forecast gives it (the month's settled cost, plus " +
        'its usage model and recurring charges over the rest of the month).',
    },
  ),
  movers: Type.Array(Mover, {
    maxItems: 5,
    description:
      'The 5 subscriptions, resource groups and services whose daily usage rate changed most: the last 7 settled ' +
      'days against the 7 before, largest change (either way) first.',
  }),
  savings: Type.Object({
    monthly: Money,
    insights: Type.Integer({ minimum: 0 }),
    link: Type.String(),
  }),
})

export const BudgetAtRisk = Type.Object({
  budgetId: Uuid,
  name: Type.String(),
  breachDate: DateOnly,
  percent: Type.Number({ description: 'The forecast at the period end, in percent of the amount.' }),
  amount: Money,
  currency: Currency,
})
export type BudgetAtRisk = Static<typeof BudgetAtRisk>

export const Overview = Type.Object(
  {
    asOf: DateOnly,
    tenancies: Type.Array(Type.Object({ id: Uuid, name: Type.String() })),
    currencies: Type.Array(CurrencyOverview, {
      description: 'One entry per currency: amounts are never added across.',
    }),
    budgetsAtRisk: Type.Array(BudgetAtRisk, {
      description: 'Budgets forecast to exceed their amount, by breach date.',
    }),
    anomalies: Type.Object({
      total: Type.Integer({ minimum: 0 }),
      link: Type.String(),
      bySeverity: Type.Array(
        Type.Object({
          severity: StringEnum(AnomalySeverities),
          count: Type.Integer({ minimum: 0 }),
          link: Type.String(),
        }),
      ),
    }),
  },
  {
    title: 'Overview',
    description:
      "What a user lands on: this month's spend and where it ends, budgets at risk, this week's movers, active " +
      'anomalies and the savings of active insights, over the tenancies they may see. Links are paths of the web ' +
      'interface.',
  },
)
export type Overview = Static<typeof Overview>
export type CurrencyOverview = Static<typeof CurrencyOverview>
export type Mover = Static<typeof Mover>
export type TenancyForecast = Static<typeof TenancyForecast>
