import { useState } from 'preact/hooks'
import { ApiProblem, api, type CostForecast } from '../../api'
import { budgetsOfChart, daysIn, PACE_STROKE, periodOf } from '../../components/chart/budget-pace'
import { CostChart } from '../../components/chart/cost-chart'
import { MarkerList } from '../../components/chart/marker-list'
import { chartScopeOf } from '../../components/chart-scope'
import { formatMoney, utcDay } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { useSearchParams } from '../../components/search-params'
import { TenantTabs } from '../../components/tenant-tabs'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'
import { useSubscriptionNames } from '../anomalies/subscription-names'
import { type Budget, budgetsApi } from '../budgets/api'
import { AnomalyList } from './anomaly-list'
import { useLiveMarkers } from './live-markers'
import { ScopeHeading } from './scope-heading'
import { useChartAnomalies } from './use-anomalies'

const GROUPINGS = [
  { value: '', label: 'Nothing (total)' },
  { value: 'service', label: 'Service' },
  { value: 'resourceGroup', label: 'Resource group' },
  { value: 'resource', label: 'Resource' },
  { value: 'tag', label: 'Tag' },
] as const

/** A YYYY-MM-DD day of the address' query, or null. */
function dayParam(search: URLSearchParams, name: string): string | null {
  const value = search.get(name)
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null
}

/**
 * The cost explorer of one tenant, or of one subscription, group or resource of it (`?scope=` in the address):
 * daily costs over a date range, grouped, with the event markers the server puts on that chart.
 */
export function ExplorerPage({ tenantId }: { tenantId: string }) {
  const search = useSearchParams()
  const scope = chartScopeOf(search)
  const { data: tenant, error: tenantError } = useLoad(() => api.tenant(tenantId), [tenantId])
  // A link may open the chart on a range and a grouping (the overview's movers); the fields change them after.
  const [from, setFrom] = useState(dayParam(search, 'from') ?? utcDay(29))
  const [to, setTo] = useState(dayParam(search, 'to') ?? utcDay(0))
  const [grouping, setGrouping] = useState(search.get('groupBy') ?? '')
  const [tagKey, setTagKey] = useState('')
  const [active, setActive] = useState<string | null>(null)
  const [showForecast, setShowForecast] = useState(false)
  const anomalies = useChartAnomalies(tenantId, scope, from, to)
  // Anomalies name a subscription by its display name.
  useSubscriptionNames([tenantId])

  // One resource is one group of either kind: those splits say nothing there.
  const groupings = GROUPINGS.filter(
    (g) => scope.kind !== 'resource' || (g.value !== 'resourceGroup' && g.value !== 'resource'),
  )
  const chosen = groupings.some((g) => g.value === grouping) ? grouping : ''
  const groupBy = chosen === 'tag' ? (tagKey.trim() ? `tag:${tagKey.trim()}` : '') : chosen
  const {
    data: loaded,
    loading,
    error: seriesError,
  } = useLoad(
    () => api.dailyCosts(tenantId, { from, to, groupBy, scope: scope.text, subscriptionId: scope.subscriptionId }),
    [tenantId, from, to, groupBy, scope.text, scope.subscriptionId],
  )
  const forecastTo = to > monthEnd(utcDay(0)) ? to : monthEnd(utcDay(0))
  const forecast = useLoad(
    () =>
      showForecast
        ? api.costForecast(tenantId, { to: forecastTo, scope: scope.text, subscriptionId: scope.subscriptionId })
        : Promise.resolve(null),
    [tenantId, forecastTo, scope.text, scope.subscriptionId, showForecast],
  )
  // Budgets of exactly this chart's scope draw their daily pace; without them (or their answer) the chart is the same.
  const { data: allBudgets } = useLoad(() => budgetsApi.all().catch(() => [] as Budget[]), [])
  const error = seriesError ?? tenantError
  // The markers stay current while the page is open: one created elsewhere shows within seconds.
  const series = useLiveMarkers(tenantId, scope, loaded)

  const total = series?.points.reduce((sum, p) => sum + p.cost, 0) ?? 0
  const empty = series?.points.every((p) => p.cost === 0)
  const paced = series
    ? budgetsOfChart(allBudgets ?? [], { tenantId, kind: scope.kind, value: scope.value, currency: series.currency })
    : []
  return (
    <section aria-labelledby="explorer-title">
      <ScopeHeading tenantId={tenantId} tenant={tenant} scope={scope} />
      <TenantTabs tenantId={tenantId} />
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="from">From</label>
          <input id="from" type="date" value={from} max={to} onChange={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="to">To</label>
          <input id="to" type="date" value={to} min={from} onChange={(e) => setTo(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="group-by">Group by</label>
          <select id="group-by" value={chosen} onChange={(e) => setGrouping(e.currentTarget.value)}>
            {groupings.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field checkbox-field">
          <input
            id="show-forecast"
            type="checkbox"
            checked={showForecast}
            onChange={(e) => setShowForecast(e.currentTarget.checked)}
          />
          <label for="show-forecast">Forecast</label>
        </div>
        {chosen === 'tag' && (
          <div class="field">
            <label for="tag-key">Tag key</label>
            <input
              id="tag-key"
              type="text"
              placeholder="e.g. env"
              value={tagKey}
              onChange={(e) => setTagKey(e.currentTarget.value)}
            />
          </div>
        )}
      </form>

      <ProblemMessage error={error} />
      {loading && (
        <p class="status" role="status">
          Loading costs…
        </p>
      )}
      {series && (
        <div class="card">
          <p class="summary">
            <span class="muted">
              {series.from} to {series.to}
            </span>
            <strong>{formatMoney(total, series.currency)}</strong>
          </p>
          {empty && <p class="status">No costs in this range yet.</p>}
          <CostChart
            series={series}
            forecast={showForecast ? (forecast.data?.series[0] ?? null) : null}
            anomalies={anomalies.anomalies}
            budgets={paced}
            active={active}
            onActivate={setActive}
          />
          {paced.length > 0 && <PaceSummary budgets={paced} day={series.to} />}
          {showForecast && <ForecastSummary forecast={forecast.data} error={forecast.error} />}
          <h2>Event markers</h2>
          <MarkerList markers={series.markers} active={active} onActivate={setActive} />
          <h2>Anomalies</h2>
          <AnomalyList {...anomalies} active={active} onActivate={setActive} />
        </div>
      )}
    </section>
  )
}

/** The last day of the day's month. */
function monthEnd(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
}

/** The forecast in words under the chart: the month's end with its interval, and how well it did lately. */
function ForecastSummary({ forecast, error }: { forecast: CostForecast | null; error: unknown }) {
  if (error instanceof ApiProblem && error.problem.status === 422) {
    return <p class="status">No forecast yet: {error.problem.detail}</p>
  }
  const total = forecast?.series[0]
  if (!forecast || !total) return null
  const money = (v: number) => formatMoney(v, forecast.currency)
  const { mase, coverage80 } = forecast.accuracy
  return (
    <p class="status forecast-summary">
      <span class="forecast-key" aria-hidden="true" /> Forecast (dashed, with its 80% band) from {forecast.from}: this
      month ends near <strong>{money(total.monthEnd.expected)}</strong> ({money(total.monthEnd.lower)} to{' '}
      {money(total.monthEnd.upper)}).
      {mase !== null && coverage80 !== null && (
        <span class="muted">
          {' '}
          Over the last {forecast.accuracy.backtestDays} days it erred {mase < 1 ? 'less' : 'more'} than repeating the
          week before (MASE {mase.toFixed(2)}), its band held {Math.round(coverage80 * 100)}% of days.
        </span>
      )}
    </p>
  )
}

/** The pace lines in words: what the thin line is, and each budget's daily pace in the period of the chart's end. */
function PaceSummary({ budgets, day }: { budgets: Budget[]; day: string }) {
  return (
    <ul class="pace-summary" aria-label="Budget pace lines">
      {budgets.map((budget) => {
        const period = periodOf(budget, day)
        const money = (v: number) => formatMoney(v, budget.currency)
        return (
          <li key={budget.id} class="status">
            <span class="pace-key" style={{ borderColor: PACE_STROKE }} aria-hidden="true" />{' '}
            <a href={`/budgets/${encodeURIComponent(budget.id)}`} onClick={onLinkClick}>
              {budget.name}
            </a>
            {period ? (
              <>
                {' '}
                budget pace (thin dotted line):{' '}
                <strong>{money(period.amount / daysIn(period.from, period.to))} a day</strong>, its{' '}
                {money(period.amount)} spread evenly over the {daysIn(period.from, period.to)} days from {period.from}{' '}
                to {period.to}.
              </>
            ) : (
              ' budget pace (thin dotted line): the budget has no period on the chart\u2019s last day.'
            )}
          </li>
        )
      })}
    </ul>
  )
}
