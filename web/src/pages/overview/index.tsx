import { Badge } from '../../components/badge'
import { formatMoney } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { TenantFilter, useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'
import { signedMoney } from '../anomalies/incidents'
import { type CurrencyOverview, loadOverview, type Mover, type Overview } from './api'
import './overview.css'

/** A UTC day as people read it: "4 Nov 2026". */
function day(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' })
}

/** A UTC day without its year: "4 Nov". */
function shortDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
}

function signedPercent(percent: number | null): string {
  if (percent === null) return ''
  return ` (${percent >= 0 ? '+' : '−'}${Math.abs(percent).toLocaleString(undefined, { maximumFractionDigits: 1 })}%)`
}

const KIND_LABELS: Record<Mover['kind'], string> = {
  Subscription: 'Subscription',
  ResourceGroup: 'Resource group',
  Service: 'Service',
}

/**
 * Where people land after signing in: this month's spend against last month's, where the month ends, budgets at
 * risk, this week's movers, active anomalies and the savings of active insights, each linking to its page.
 */
export function OverviewPage() {
  const [filters, setFilters] = useQueryFilters({ tenancyId: '' })
  const tenants = useTenants()
  const { data, loading, error } = useLoad(() => loadOverview(filters.tenancyId), [filters.tenancyId])
  return (
    <section aria-labelledby="overview-title" class="overview">
      <h1 id="overview-title">Overview</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <TenantFilter
          id="overview-tenancy"
          tenants={tenants.tenants}
          value={filters.tenancyId}
          onChange={(tenancyId) => setFilters({ tenancyId })}
        />
      </form>
      <ProblemMessage error={error ?? tenants.error} />
      {loading && (
        <p class="status" role="status">
          Loading the overview…
        </p>
      )}
      {data && <OverviewBody overview={data} busy={loading} />}
    </section>
  )
}

function OverviewBody({ overview, busy }: { overview: Overview; busy: boolean }) {
  const single = overview.tenancies.length === 1 ? overview.tenancies[0]! : null
  if (overview.tenancies.length === 0) {
    return <p class="status">No tenants yet, or none you have a role on.</p>
  }
  return (
    <div aria-busy={busy}>
      <p class="status">
        As of {day(overview.asOf)} (UTC), over {single ? single.name : `${overview.tenancies.length} tenants`}.
      </p>
      {overview.budgetsAtRisk.length > 0 && (
        <section aria-labelledby="overview-budgets" class="overview-block">
          <h2 id="overview-budgets">Budgets at risk</h2>
          <ul class="finding-list" aria-label="Budgets at risk">
            {overview.budgetsAtRisk.map((b) => (
              <li key={b.budgetId}>
                <a href={`/budgets/${encodeURIComponent(b.budgetId)}`} onClick={onLinkClick}>
                  <span class="finding-title">{b.name}</span>
                  <span class="finding-amount">
                    {Math.round(b.percent)}%<span class="muted">of {formatMoney(b.amount, b.currency)}</span>
                  </span>
                  <span class="finding-meta muted">Forecast to exceed on {day(b.breachDate)}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {overview.currencies.length === 0 && <p class="status">No cost has been collected yet.</p>}
      {overview.currencies.map((c) => (
        <CurrencySection
          key={c.currency}
          currency={c}
          titled={overview.currencies.length > 1}
          costsHref={single ? `/tenants/${single.id}` : '/tenants'}
        />
      ))}
      <section aria-labelledby="overview-anomalies" class="overview-block">
        <h2 id="overview-anomalies">Active anomalies</h2>
        <p>
          <a href={overview.anomalies.link} onClick={onLinkClick}>
            {overview.anomalies.total === 1 ? '1 active anomaly' : `${overview.anomalies.total} active anomalies`}
          </a>
        </p>
        <ul class="overview-severities" aria-label="Active anomalies by severity">
          {overview.anomalies.bySeverity.map((s) => (
            <li key={s.severity}>
              <a href={s.link} onClick={onLinkClick}>
                <span class="overview-count">{s.count}</span> <Badge kind="severity" value={s.severity} />
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}

function CurrencySection(props: { currency: CurrencyOverview; titled: boolean; costsHref: string }) {
  const { currency: c } = props
  const id = `overview-${c.currency}`
  const money = (amount: number) => formatMoney(amount, c.currency)
  const mtd = c.monthToDate
  const total = c.forecast.total
  const young = c.forecast.tenancies.filter((f) => f.status === 'NotEnoughHistory')
  // The same number of days, unless last month was shorter: then all of it.
  const sameDays = mtd.previous.days === mtd.days ? `${mtd.days} days` : `${mtd.previous.days} days (all of it)`
  return (
    <section aria-labelledby={id} class="overview-block">
      <h2 id={id}>{props.titled ? `Spend in ${c.currency}` : 'Spend'}</h2>
      <div class="overview-cards">
        <article class="card" aria-labelledby={`${id}-mtd`}>
          <h3 id={`${id}-mtd`}>Month to date</h3>
          <p class="overview-figure">{money(mtd.amount)}</p>
          <p>
            {mtd.previous.amount === 0 ? (
              <>Nothing was spent over the same {sameDays} of last month.</>
            ) : (
              <>
                {signedMoney(mtd.change, c.currency)}
                {signedPercent(mtd.changePercent)} against {money(mtd.previous.amount)} over the same {sameDays} of last
                month.
              </>
            )}
          </p>
          <p class="muted">
            {day(mtd.from)} to {day(mtd.to)}; from {day(mtd.preliminaryFrom)} the costs are preliminary and may still
            change.
          </p>
          <a href={props.costsHref} onClick={onLinkClick}>
            Explore the costs
          </a>
        </article>
        <article class="card" aria-labelledby={`${id}-forecast`}>
          <h3 id={`${id}-forecast`}>Month-end forecast</h3>
          {total ? (
            <>
              <p class="overview-figure">{money(total.expected)}</p>
              <p>
                By {day(c.forecast.date)}, 80% likely between {money(total.lower)} and {money(total.upper)}.
              </p>
            </>
          ) : (
            <p class="status">No forecast: not enough history yet.</p>
          )}
          {young.length > 0 && (
            <ul class="overview-notes" aria-label="Tenants without a forecast">
              {young.map((f) => (
                <li key={f.tenancyId}>
                  <a href={`/tenants/${f.tenancyId}`} onClick={onLinkClick}>
                    {f.name}
                  </a>
                  : not enough history ({f.historyDays} of the {f.requiredDays} settled days a forecast needs)
                </li>
              ))}
            </ul>
          )}
        </article>
        <article class="card" aria-labelledby={`${id}-savings`}>
          <h3 id={`${id}-savings`}>Savings found</h3>
          <p class="overview-figure">
            {money(c.savings.monthly)}
            <span class="muted"> a month</span>
          </p>
          <p>
            <a href={c.savings.link} onClick={onLinkClick}>
              {c.savings.insights === 1 ? '1 active insight' : `${c.savings.insights} active insights`}
            </a>
          </p>
        </article>
      </div>
      <h3 id={`${id}-movers`}>Top movers this week</h3>
      {c.movers.length === 0 ? (
        <p class="status">No subscription, resource group or service changed its daily rate this week.</p>
      ) : (
        <ol class="overview-movers" aria-labelledby={`${id}-movers`}>
          {c.movers.map((m) => (
            <MoverItem key={`${m.tenancyId} ${m.kind} ${m.key}`} mover={m} currency={c.currency} />
          ))}
        </ol>
      )}
    </section>
  )
}

function MoverItem({ mover: m, currency }: { mover: Mover; currency: string }) {
  const money = (amount: number) => formatMoney(amount, currency)
  return (
    <li class="card">
      <div class="overview-mover-head">
        <a href={m.link} onClick={onLinkClick} class="finding-title">
          {m.name}
        </a>
        <span class={m.change > 0 ? 'overview-up' : 'overview-down'}>
          {signedMoney(m.change, currency)}/day{signedPercent(m.changePercent)}
        </span>
      </div>
      <p class="muted">
        {KIND_LABELS[m.kind]} · {m.tenancyName} · {money(m.previousDailyRate)} to {money(m.dailyRate)} a day,{' '}
        {shortDay(m.from)} to {shortDay(m.to)} against the 7 days before
      </p>
      {m.markers.length > 0 && <p class="muted">Markers near the change:</p>}
      {m.markers.length > 0 && (
        <ul class="overview-notes" aria-label={`Markers near ${m.name}'s change`}>
          {m.markers.map((marker) => (
            <li key={marker.id}>
              {marker.title}{' '}
              <span class="muted">
                ({marker.category}, {shortDay(marker.occurredAt.slice(0, 10))})
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}
