import { useEffect, useRef, useState } from 'preact/hooks'
import { hasRole, type SessionUser, type Tenant } from '../../api'
import { chartHref } from '../../components/chart-scope'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { formatMoney } from '../../components/format'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { scopeInWords } from '../../components/scope-fields'
import { useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { navigate, onLinkClick } from '../../router'
import { type Budget, type BudgetStatus, budgetsApi, type Threshold } from './api'
import './budgets.css'
import { BudgetForm } from './form'

const PAGE_SIZE = 25

/** A UTC day as people read it: "4 Nov 2026". */
function day(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' })
}
/** A UTC day without its year: "25 Nov". */
function shortDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
}
const percentText = (value: number) => `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })}%`

/** Whether the user may change a budget: owners any; a tenancy's Admins those of their tenancies only. */
export function mayManage(user: SessionUser, budget: Pick<Budget, 'scope'>): boolean {
  if (user.isOwner) return true
  const ids = budget.scope.tenancyIds
  return ids !== null && ids.length > 0 && ids.every((id) => hasRole(user, id, 'Admin'))
}
/** Owners make budgets of any tenancy, a tenancy's Admins of theirs. */
const mayCreate = (user: SessionUser) => user.isOwner || user.tenancyRoles.some((r) => r.role === 'Admin')

/** What a budget counts, in words: its tenancies by name, then what narrows it. */
export const scopeText = (budget: Pick<Budget, 'scope'>, tenants: Tenant[]) =>
  scopeInWords(budget.scope, tenants, 'The whole organisation')

/** The amount per period in words: "US$3,000.00 a month from 1 Nov 2026", or the custom periods' count. */
function amountText(budget: Budget): string {
  const money = (v: number) => formatMoney(v, budget.currency)
  if (budget.period === 'Custom') {
    const n = budget.periods?.length ?? 0
    return `${n} custom ${n === 1 ? 'period' : 'periods'}`
  }
  const per = { Monthly: 'a month', Quarterly: 'a quarter', Annually: 'a year' }[budget.period]
  return `${money(budget.amount ?? 0)} ${per} from ${day(budget.startDate)}`
}

function thresholdText(t: Pick<Threshold, 'kind' | 'value' | 'basis'>, currency: string): string {
  const what = t.kind === 'Percent' ? percentText(t.value) : formatMoney(t.value, currency)
  return `${what} ${t.basis === 'Actual' ? 'spent' : 'forecast'}`
}

/**
 * The spend so far as a bar against the amount, and the forecast at the period's end as a lighter bar behind it;
 * the words beside say the same, so the colours only help.
 */
function SpendBar({ status }: { status: BudgetStatus }) {
  const width = (value: number) => `${Math.max(0, Math.min(100, value))}%`
  const forecastPercent = status.amount > 0 ? (100 * status.forecast.expected) / status.amount : 0
  const over = status.percent >= 100
  return (
    // The words beside it say the same: the bar is a picture of them.
    <div class="budget-bar" aria-hidden="true" data-percent={Math.round(status.percent)}>
      <span class="budget-bar-forecast" style={{ width: width(forecastPercent) }} />
      <span class={over ? 'budget-bar-actual over' : 'budget-bar-actual'} style={{ width: width(status.percent) }} />
    </div>
  )
}

/** A budget's status as a user reads it: spend, the bar, the forecast, the breach date, each threshold. */
function StatusBlock({ budget }: { budget: Budget }) {
  const status = budget.status
  if (!status) {
    return <p class="status">No period today: the budget starts later, or its custom periods do not cover today.</p>
  }
  const money = (v: number) => formatMoney(v, budget.currency)
  return (
    <div class="budget-status">
      <p class="budget-spend">
        <strong>{money(status.actual)}</strong> spent of {money(status.amount)}{' '}
        <span class="budget-percent">({percentText(status.percent)})</span>
        <span class="muted">
          {' '}
          {day(status.periodFrom)} to {day(status.periodTo)}
        </span>
      </p>
      <SpendBar status={status} />
      <p>
        Forecast at the period's end: <strong>{money(status.forecast.expected)}</strong>{' '}
        <span class="muted">
          (80% likely {money(status.forecast.lower)} to {money(status.forecast.upper)})
        </span>
      </p>
      <p class={status.breachDate ? 'budget-breach' : 'budget-on-track'}>
        {status.breachDate
          ? status.percent >= 100
            ? `Over the amount since ${shortDay(status.breachDate)}.`
            : `Exceeds the amount on ${shortDay(status.breachDate)} at the current run-rate.`
          : 'On track: not forecast to exceed the amount this period.'}
      </p>
      {status.thresholds.length > 0 && (
        <ul class="budget-thresholds" aria-label={`Thresholds of ${budget.name}`}>
          {status.thresholds.map((t, i) => (
            <li key={i}>
              <span class={`badge threshold-${t.state.toLowerCase()}`}>{t.state}</span>{' '}
              {thresholdText(t, budget.currency)}
              {t.state === 'Alarm' && t.since && <span class="muted"> since {shortDay(t.since)}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** One budget: its name (a link to its page unless on it), scope, amount, status and, for its managers, actions. */
function BudgetCard(props: {
  budget: Budget
  tenants: Tenant[]
  user: SessionUser
  linked: boolean
  onEdit(): void
  onDelete(): void
}) {
  const { budget } = props
  return (
    <article class="card budget-card" aria-label={budget.name}>
      <div class="budget-head">
        {/* On its own page the page's heading names it. */}
        {props.linked ? (
          <h2 class="budget-name">
            <a href={`/budgets/${encodeURIComponent(budget.id)}`} onClick={onLinkClick}>
              {budget.name}
            </a>
          </h2>
        ) : (
          <span />
        )}
        {mayManage(props.user, budget) && (
          <div class="budget-actions">
            <button type="button" class="plain" aria-label={`Edit ${budget.name}`} onClick={props.onEdit}>
              Edit
            </button>
            <button type="button" class="danger-outline" aria-label={`Delete ${budget.name}`} onClick={props.onDelete}>
              Delete
            </button>
          </div>
        )}
      </div>
      <p class="budget-facts muted">
        <span>{scopeText(budget, props.tenants)}</span>
        <span>{amountText(budget)}</span>
        <span>{budget.costBasis === 'Effective' ? 'Effective (amortised) cost' : 'Billed cost'}</span>
      </p>
      <StatusBlock budget={budget} />
    </article>
  )
}

function DeleteBudget(props: { budget: Budget; onDeleted(): void; onClose(): void }) {
  return (
    <ConfirmDialog
      title={`Delete the budget "${props.budget.name}"?`}
      confirmLabel="Delete the budget"
      onConfirm={async () => {
        await budgetsApi.remove(props.budget.id)
        props.onDeleted()
      }}
      onClose={props.onClose}
    >
      <p>Its thresholds alert no more, and alert rules watching it watch the others. This cannot be undone.</p>
    </ConfirmDialog>
  )
}

/** The budgets the user may see, each with its status; add, edit and delete for those who manage them. */
export function BudgetsPage({ user }: { user: SessionUser }) {
  const [page, setPage] = useState(1)
  const { data: budgets, error: listError, reload } = useLoad(() => budgetsApi.list(page, PAGE_SIZE), [page])
  const { tenants, loading: tenantsLoading, error: tenantsError } = useTenants()
  const [editing, setEditing] = useState<Budget | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Budget | null>(null)
  const error = listError ?? tenantsError

  // Back from the form, the keyboard is where it left: on "New budget".
  const newButton = useRef<HTMLButtonElement>(null)
  const wasAdding = useRef(false)
  useEffect(() => {
    if (wasAdding.current && editing === null) newButton.current?.focus()
    wasAdding.current = editing === 'new'
  }, [editing])

  return (
    <section class="budgets-page" aria-labelledby="budgets-title">
      <div class="page-head">
        <h1 id="budgets-title">Budgets</h1>
        {mayCreate(user) && editing === null && (
          // The form offers the tenancies: it opens once they are known.
          <button type="button" ref={newButton} disabled={tenantsLoading} onClick={() => setEditing('new')}>
            New budget
          </button>
        )}
      </div>
      {editing !== null && (
        <BudgetForm
          key={editing === 'new' ? 'new' : editing.id}
          user={user}
          tenants={tenants}
          budget={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            reload()
          }}
        />
      )}
      <ProblemMessage error={error} />
      {!budgets && !error && (
        <p class="status" role="status">
          Loading budgets…
        </p>
      )}
      {budgets?.totalCount === 0 && (
        <div class="card budget-empty">
          <p>
            A budget is an amount you plan to spend per month, quarter, year or custom period, on tenancies or part of
            them (tags, a resource group, a service). Costwatch shows the spend so far, where the period is forecast to
            end and the day it would exceed the amount, and its thresholds alarm through the alert rules.
          </p>
          <p class="status">
            {mayCreate(user)
              ? 'No budgets yet: add one with "New budget".'
              : 'No budgets you can see: an owner or a tenancy\u2019s Admin adds them.'}
          </p>
        </div>
      )}
      {budgets && budgets.items.length > 0 && (
        <ul class="budget-list" aria-labelledby="budgets-title">
          {budgets.items.map((budget) => (
            <li key={budget.id}>
              <BudgetCard
                budget={budget}
                tenants={tenants}
                user={user}
                linked
                onEdit={() => setEditing(budget)}
                onDelete={() => setDeleting(budget)}
              />
            </li>
          ))}
        </ul>
      )}
      {budgets && <Pager page={budgets} noun="budgets" onPage={setPage} />}
      {deleting && <DeleteBudget budget={deleting} onDeleted={reload} onClose={() => setDeleting(null)} />}
    </section>
  )
}

/** The cost chart that draws the budget's pace: its one tenancy's, or its resource group's; null for any other. */
function chartOf(budget: Budget): string | null {
  const { tenancyIds, tags, resourceGroup, service } = budget.scope
  if (tenancyIds?.length !== 1 || (tags ?? []).length > 0 || service) return null
  return chartHref(tenancyIds[0]!, resourceGroup ? { kind: 'resourceGroup', value: resourceGroup } : undefined)
}

/** One budget's page (where the overview's budgets at risk lead): its status, thresholds and periods. */
export function BudgetPage({ budgetId, user }: { budgetId: string; user: SessionUser }) {
  const { data: budget, error: budgetError, reload } = useLoad(() => budgetsApi.get(budgetId), [budgetId])
  const { tenants, error: tenantsError } = useTenants()
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const error = budgetError ?? tenantsError
  return (
    <section class="budgets-page" aria-labelledby="budget-title">
      <p class="breadcrumb">
        <a href="/budgets" onClick={onLinkClick}>
          Budgets
        </a>
      </p>
      <h1 id="budget-title">{budget?.name ?? 'Budget'}</h1>
      <ProblemMessage error={error} />
      {!budget && !error && (
        <p class="status" role="status">
          Loading the budget…
        </p>
      )}
      {budget && editing && (
        <BudgetForm
          user={user}
          tenants={tenants}
          budget={budget}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false)
            reload()
          }}
        />
      )}
      {budget && !editing && (
        <BudgetCard
          budget={budget}
          tenants={tenants}
          user={user}
          linked={false}
          onEdit={() => setEditing(true)}
          onDelete={() => setDeleting(true)}
        />
      )}
      {budget && !editing && chartOf(budget) && (
        <p>
          <a href={chartOf(budget)!} onClick={onLinkClick}>
            Its daily pace on the costs chart
          </a>
        </p>
      )}
      {budget?.period === 'Custom' && (budget.periods?.length ?? 0) > 0 && (
        <table class="records budget-periods" aria-label={`Periods of ${budget.name}`}>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {budget.periods?.map((p) => (
              <tr key={p.from}>
                <td>{day(p.from)}</td>
                <td>{day(p.to)}</td>
                <td>{formatMoney(p.amount, budget.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {budget && deleting && (
        <DeleteBudget budget={budget} onDeleted={() => navigate('/budgets')} onClose={() => setDeleting(false)} />
      )}
    </section>
  )
}
