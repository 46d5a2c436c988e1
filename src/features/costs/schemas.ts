import { type Static, Type } from 'typebox'
import { ref } from '../../platform/http/openapi.js'
import { Currency, DateOnly, Money, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'
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

const ForecastPoint = Type.Object({
  date: DateOnly,
  expected: Money,
  lower: Money,
  upper: Money,
})
const ForecastTotal = Type.Object({ from: DateOnly, to: DateOnly, expected: Money, lower: Money, upper: Money })

export const CostForecast = Type.Object(
  {
    scope: Type.String(),
    groupBy: Nullable(Type.String()),
    currency: Currency,
    method: StringEnum(['TheilSenWeekly'] as const, {
      description:
        'Weekly seasonal factors (each weekday against its centred 7-day mean), a Theil-Sen trend on the ' +
        "deseasonalised daily usage of the last 84 settled days, an 80% interval from the fit's residual quantiles " +
        'widened with the horizon; purchases, taxes and credits added on the day of the month they recur. See ' +
        'docs/forecast.md.',
    }),
    historyFrom: DateOnly,
    historyTo: Type.String({ format: 'date', description: 'The last settled day: the history ends there.' }),
    from: Type.String({ format: 'date', description: 'The first day forecast: the day after historyTo.' }),
    to: DateOnly,
    accuracy: Type.Object(
      {
        mase: Nullable(
          Type.Number({
            description:
              "Mean absolute error over the backtest against the seasonal-naive forecast's (the same weekday of " +
              'the week before the backtest): below 1 is better than seasonal naive. Null without enough history.',
          }),
        ),
        coverage80: Nullable(
          Type.Number({ description: "The share of the backtest's days inside their 80% interval (0 to 1)." }),
        ),
        backtestDays: Type.Integer({
          description: 'The last days of the history forecast from the days before them (0: too little history).',
        }),
      },
      { description: "The scope's total usage forecast, backtested over the last 4 weeks of its history." },
    ),
    series: Type.Array(
      Type.Object({
        key: Type.String({ description: 'The group\'s key as on the chart ("" ungrouped).' }),
        name: Type.String(),
        points: Type.Array(ForecastPoint, { description: 'Every day from `from` to `to`.' }),
        monthEnd: Type.Object(
          {
            date: DateOnly,
            expected: Money,
            lower: Money,
            upper: Money,
          },
          {
            description:
              "The current month's projected total: its settled days' actual cost (every category) and the " +
              'forecast of the days after historyTo.',
          },
        ),
        periodTotal: ForecastTotal,
      }),
    ),
  },
  {
    $id: 'CostForecast',
    description:
      "Extension: the expected daily cost of a chart scope's series from the day after its last settled day up to " +
      "`to`, with an 80% interval, each series' month-end and period totals, and the accuracy of the forecast in " +
      'a backtest.',
  },
)
export type CostForecast = Static<typeof CostForecast>

export const CostForecastQuery = Type.Object({
  scope: CostSeriesQuery.properties.scope,
  subscriptionId: CostSeriesQuery.properties.subscriptionId,
  groupBy: CostSeriesQuery.properties.groupBy,
  to: Type.Optional(
    Type.String({
      format: 'date',
      description: 'The last day forecast; default the end of the current month; at most 12 months ahead.',
    }),
  ),
})
