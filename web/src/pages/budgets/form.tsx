import { useState } from 'preact/hooks'
import { ApiProblem, hasRole, type SessionUser, type Tenant } from '../../api'
import { formErrors, messagesUnder, withoutFields } from '../../components/field-errors'
import { utcDay } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { ScopeFields } from '../../components/scope-fields'
import {
  type Budget,
  type BudgetInput,
  type BudgetPeriodKind,
  budgetsApi,
  COST_BASES,
  type CostBasis,
  MAX_THRESHOLDS,
  PERIOD_KINDS,
  THRESHOLD_BASES,
  THRESHOLD_KINDS,
  type Threshold,
} from './api'

/**
 * The fields the form shows messages beside (a period kind's own while it is chosen); the rest stay in the problem
 * under the form.
 */
const formFields = (period: BudgetPeriodKind) => [
  'name',
  'scope',
  'period',
  ...(period === 'Custom' ? ['periods'] : ['amount', 'startDate']),
  'currency',
  'costBasis',
  'thresholds',
]
const withoutFormFields = (error: unknown, period: BudgetPeriodKind) => {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return error
  const shown = Object.keys(error.problem.errors).filter((name) =>
    formFields(period).some((f) => name === f || name.startsWith(`${f}.`)),
  )
  return withoutFields(error, shown)
}

/** What the form holds: numbers as typed, sent for the API to judge. */
interface Draft {
  name: string
  wholeOrganisation: boolean
  tenancyIds: string[]
  tags: { key: string; value: string }[]
  resourceGroup: string
  service: string
  period: BudgetPeriodKind
  amount: string
  periods: { from: string; to: string; amount: string }[]
  currency: string
  startDate: string
  costBasis: CostBasis
  thresholds: { kind: Threshold['kind']; value: string; basis: Threshold['basis'] }[]
}

function draftOf(budget: Budget | null, user: SessionUser, tenants: Tenant[]): Draft {
  const mine = tenants.filter((t) => hasRole(user, t.id, 'Admin'))
  return {
    name: budget?.name ?? '',
    wholeOrganisation: budget ? budget.scope.tenancyIds === null : false,
    // A new budget of someone with one tenancy to choose covers it.
    tenancyIds: budget?.scope.tenancyIds ?? (mine.length === 1 ? [mine[0]!.id] : []),
    tags: budget?.scope.tags ?? [],
    resourceGroup: budget?.scope.resourceGroup ?? '',
    service: budget?.scope.service ?? '',
    period: budget?.period ?? 'Monthly',
    amount: budget?.amount == null ? '' : String(budget.amount),
    periods: (budget?.periods ?? []).map((p) => ({ from: p.from, to: p.to, amount: String(p.amount) })),
    currency: budget?.currency ?? mine[0]?.costs.currency ?? 'USD',
    startDate: budget?.startDate ?? `${utcDay(0).slice(0, 7)}-01`,
    costBasis: budget?.costBasis ?? 'Effective',
    thresholds: (budget?.thresholds ?? []).map((t) => ({ kind: t.kind, value: String(t.value), basis: t.basis })),
  }
}

/** A number as typed: empty is none; anything else goes to the API, which names the field when it is wrong. */
const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text))

function inputOf(draft: Draft): BudgetInput {
  const custom = draft.period === 'Custom'
  return {
    name: draft.name,
    scope: {
      tenancyIds: draft.wholeOrganisation ? null : draft.tenancyIds,
      tags: draft.tags.filter((t) => t.key.trim() !== '' || t.value.trim() !== ''),
      resourceGroup: draft.resourceGroup.trim() || null,
      service: draft.service.trim() || null,
    },
    period: draft.period,
    ...(custom
      ? { periods: draft.periods.map((p) => ({ from: p.from, to: p.to, amount: number(p.amount) })) }
      : { amount: number(draft.amount), startDate: draft.startDate }),
    currency: draft.currency.trim().toUpperCase(),
    costBasis: draft.costBasis,
    thresholds: draft.thresholds.map((t) => ({ kind: t.kind, value: number(t.value), basis: t.basis })),
  }
}

/** Problems the browser can name before asking: a number left empty or not a number. */
function localProblem(input: BudgetInput): ApiProblem | null {
  const errors: Record<string, string[]> = {}
  const bad = (v: number) => !Number.isFinite(v)
  if (input.amount !== undefined && bad(input.amount)) errors.amount = ['must be a number']
  input.periods?.forEach((p, i) => {
    if (bad(p.amount)) errors[`periods.${i}.amount`] = ['must be a number']
    if (!p.from) errors[`periods.${i}.from`] = ['must be a date']
    if (!p.to) errors[`periods.${i}.to`] = ['must be a date']
  })
  if (input.period === 'Custom' && !input.periods?.length) errors.periods = ['are needed with period Custom']
  input.thresholds?.forEach((t, i) => {
    if (bad(t.value)) errors[`thresholds.${i}.value`] = ['must be a number']
  })
  if (input.scope.tenancyIds?.length === 0) errors['scope.tenancyIds'] = ['must name at least one tenancy']
  if (Object.keys(errors).length === 0) return null
  return new ApiProblem({ title: 'Some fields need a look.', status: 400, errors })
}

const PERIOD_LABEL: Record<BudgetPeriodKind, string> = {
  Monthly: 'Monthly',
  Quarterly: 'Quarterly',
  Annually: 'Annually',
  Custom: 'Custom periods',
}

/**
 * A new budget, or changes to one (`budget`): name, scope (tenancies the user administers, or the whole
 * organisation for owners; tags, a resource group, a service), the amount per period, currency, start, cost basis
 * and up to 10 thresholds. The server's 400 answers are shown beside their fields.
 */
export function BudgetForm(props: {
  user: SessionUser
  tenants: Tenant[]
  budget: Budget | null
  onCancel(): void
  onSaved(saved: Budget): void
}) {
  const { user, tenants } = props
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.budget, user, tenants))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => setDraft((d) => ({ ...d, [field]: value }))
  const choosable = tenants.filter((t) => hasRole(user, t.id, 'Admin'))
  const p = props.budget ? `budget-${props.budget.id}` : 'budget-new'

  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    const input = inputOf(draft)
    const local = localProblem(input)
    if (local) {
      setError(local)
      return
    }
    setBusy(true)
    try {
      const saved = props.budget ? await budgetsApi.update(props.budget.id, input) : await budgetsApi.create(input)
      props.onSaved(saved)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  const errors = formErrors(error, p)
  const { describedBy, invalid, fieldError } = errors
  const setRow = <K extends 'tags' | 'periods' | 'thresholds'>(field: K, i: number, row: Partial<Draft[K][number]>) =>
    setDraft((d) => ({ ...d, [field]: d[field].map((r, j) => (j === i ? { ...r, ...row } : r)) }))
  const removeRow = (field: 'tags' | 'periods' | 'thresholds', i: number) =>
    setDraft((d) => ({ ...d, [field]: d[field].filter((_, j) => j !== i) }))

  return (
    <form class="card settings-form budget-form" onSubmit={submit} aria-labelledby={`${p}-title`} noValidate>
      <h2 id={`${p}-title`}>{props.budget ? `Edit "${props.budget.name}"` : 'New budget'}</h2>
      <div class="form-grid">
        <div class="field">
          <label for={`${p}-name`}>Name</label>
          <input
            id={`${p}-name`}
            maxLength={200}
            placeholder="e.g. Payments"
            value={draft.name}
            onInput={(e) => set('name', e.currentTarget.value)}
            aria-invalid={invalid('name')}
            aria-describedby={describedBy('name')}
          />
          {fieldError('name', 'The name')}
        </div>
      </div>

      <ScopeFields
        id={p}
        draft={draft}
        set={set}
        whole={{
          checked: draft.wholeOrganisation,
          label: 'The whole organisation, every tenancy now and later',
          offered: user.isOwner,
          set: (checked) => set('wholeOrganisation', checked),
        }}
        choosable={choosable}
        noTenancy="No tenancy you administer: an owner or a tenancy's Admin makes its budgets."
        tagsLegend="Tags (optional)"
        tagsHint="Only the costs of resources carrying every tag (key in any letter case, value exact)."
        errors={errors}
      >
        {messagesUnder(error, 'scope').length > 0 &&
          !['scope.tenancyIds', 'scope.tags', 'scope.resourceGroup', 'scope.service'].some(
            (f) => messagesUnder(error, f).length > 0,
          ) &&
          fieldError('scope', 'The scope')}
      </ScopeFields>

      <fieldset>
        <legend>Amount</legend>
        <div class="form-grid">
          <div class="field">
            <label for={`${p}-period`}>Period</label>
            <select
              id={`${p}-period`}
              value={draft.period}
              onChange={(e) => {
                const period = e.currentTarget.value as BudgetPeriodKind
                setDraft((d) => ({
                  ...d,
                  period,
                  // Custom periods start with one row to fill.
                  periods:
                    period === 'Custom' && d.periods.length === 0
                      ? [{ from: d.startDate, to: '', amount: '' }]
                      : d.periods,
                }))
              }}
              aria-invalid={invalid('period')}
              aria-describedby={describedBy('period')}
            >
              {PERIOD_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {PERIOD_LABEL[kind]}
                </option>
              ))}
            </select>
            {fieldError('period', 'The period')}
          </div>
          {draft.period !== 'Custom' && (
            <div class="field">
              <label for={`${p}-amount`}>Amount</label>
              <input
                id={`${p}-amount`}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                value={draft.amount}
                onInput={(e) => set('amount', e.currentTarget.value)}
                aria-invalid={invalid('amount')}
                aria-describedby={describedBy('amount')}
              />
              {fieldError('amount', 'The amount')}
            </div>
          )}
          <div class="field">
            <label for={`${p}-currency`}>Currency</label>
            <input
              id={`${p}-currency`}
              maxLength={3}
              autocomplete="off"
              spellcheck={false}
              value={draft.currency}
              onInput={(e) => set('currency', e.currentTarget.value)}
              aria-invalid={invalid('currency')}
              aria-describedby={describedBy('currency', `${p}-currency-hint`)}
            />
            <p id={`${p}-currency-hint`} class="hint">
              The tenancies' billing currency (ISO code, e.g. USD).
            </p>
            {fieldError('currency', 'The currency')}
          </div>
          {draft.period !== 'Custom' && (
            <div class="field">
              <label for={`${p}-start`}>Start date</label>
              <input
                id={`${p}-start`}
                type="date"
                value={draft.startDate}
                onInput={(e) => set('startDate', e.currentTarget.value)}
                aria-invalid={invalid('startDate')}
                aria-describedby={describedBy('startDate', `${p}-start-hint`)}
              />
              <p id={`${p}-start-hint`} class="hint">
                Periods start on this day and repeat from it.
              </p>
              {fieldError('startDate', 'The start date')}
            </div>
          )}
          <div class="field">
            <label for={`${p}-basis`}>Cost basis</label>
            <select
              id={`${p}-basis`}
              value={draft.costBasis}
              onChange={(e) => set('costBasis', e.currentTarget.value as CostBasis)}
              aria-describedby={describedBy('costBasis')}
            >
              {COST_BASES.map((basis) => (
                <option key={basis} value={basis}>
                  {basis === 'Effective' ? 'Effective (amortised)' : 'Billed'}
                </option>
              ))}
            </select>
            {fieldError('costBasis', 'The cost basis')}
          </div>
        </div>
        {draft.period === 'Custom' && (
          <fieldset class="budget-rows" aria-describedby={describedBy('periods')}>
            <legend>Custom periods</legend>
            {draft.periods.map((row, i) => (
              <div class="budget-row" key={i}>
                <div class="field">
                  <label for={`${p}-period-from-${i}`}>From {i + 1}</label>
                  <input
                    id={`${p}-period-from-${i}`}
                    type="date"
                    value={row.from}
                    onInput={(e) => setRow('periods', i, { from: e.currentTarget.value })}
                    aria-invalid={invalid(`periods.${i}.from`)}
                  />
                </div>
                <div class="field">
                  <label for={`${p}-period-to-${i}`}>To {i + 1}</label>
                  <input
                    id={`${p}-period-to-${i}`}
                    type="date"
                    value={row.to}
                    onInput={(e) => setRow('periods', i, { to: e.currentTarget.value })}
                    aria-invalid={invalid(`periods.${i}.to`)}
                  />
                </div>
                <div class="field">
                  <label for={`${p}-period-amount-${i}`}>Amount {i + 1}</label>
                  <input
                    id={`${p}-period-amount-${i}`}
                    type="number"
                    min={0}
                    step="any"
                    inputMode="decimal"
                    value={row.amount}
                    onInput={(e) => setRow('periods', i, { amount: e.currentTarget.value })}
                    aria-invalid={invalid(`periods.${i}.amount`)}
                  />
                </div>
                <button
                  type="button"
                  class="plain"
                  aria-label={`Remove period ${i + 1}`}
                  onClick={() => removeRow('periods', i)}
                >
                  Remove
                </button>
                {fieldError(`periods.${i}`, `Period ${i + 1}:`)}
              </div>
            ))}
            {messagesUnder(error, 'periods').length > 0 &&
              !draft.periods.some((_, i) => messagesUnder(error, `periods.${i}`).length > 0) &&
              fieldError('periods', 'The periods')}
            {draft.periods.length < 60 && (
              <button
                type="button"
                class="plain"
                onClick={() => set('periods', [...draft.periods, { from: '', to: '', amount: '' }])}
              >
                Add a period
              </button>
            )}
          </fieldset>
        )}
      </fieldset>

      <fieldset class="budget-rows" aria-describedby={`${p}-thresholds-hint`}>
        <legend>Thresholds</legend>
        <p id={`${p}-thresholds-hint`} class="hint">
          Each alarms once a period, through the alert rules' "A budget threshold is crossed": a percent of the amount
          or an amount, reached by the spend so far (Actual) or by the forecast at the period's end (Forecast).
        </p>
        {draft.thresholds.map((row, i) => (
          <div class="budget-row" key={i}>
            <div class="field">
              <label for={`${p}-threshold-kind-${i}`}>Threshold {i + 1} kind</label>
              <select
                id={`${p}-threshold-kind-${i}`}
                value={row.kind}
                onChange={(e) => setRow('thresholds', i, { kind: e.currentTarget.value as Threshold['kind'] })}
              >
                {THRESHOLD_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {kind === 'Percent' ? 'Percent of the amount' : 'Amount'}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for={`${p}-threshold-value-${i}`}>Threshold {i + 1} value</label>
              <input
                id={`${p}-threshold-value-${i}`}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                value={row.value}
                onInput={(e) => setRow('thresholds', i, { value: e.currentTarget.value })}
                aria-invalid={invalid(`thresholds.${i}`)}
              />
            </div>
            <div class="field">
              <label for={`${p}-threshold-basis-${i}`}>Threshold {i + 1} basis</label>
              <select
                id={`${p}-threshold-basis-${i}`}
                value={row.basis}
                onChange={(e) => setRow('thresholds', i, { basis: e.currentTarget.value as Threshold['basis'] })}
              >
                {THRESHOLD_BASES.map((basis) => (
                  <option key={basis} value={basis}>
                    {basis}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              class="plain"
              aria-label={`Remove threshold ${i + 1}`}
              onClick={() => removeRow('thresholds', i)}
            >
              Remove
            </button>
            {fieldError(`thresholds.${i}`, `Threshold ${i + 1}:`)}
          </div>
        ))}
        {messagesUnder(error, 'thresholds').length > 0 &&
          !draft.thresholds.some((_, i) => messagesUnder(error, `thresholds.${i}`).length > 0) &&
          fieldError('thresholds', 'The thresholds')}
        {draft.thresholds.length < MAX_THRESHOLDS && (
          <button
            type="button"
            class="plain"
            onClick={() =>
              set('thresholds', [
                ...draft.thresholds,
                { kind: 'Percent', value: draft.thresholds.length === 0 ? '80' : '100', basis: 'Actual' },
              ])
            }
          >
            Add a threshold
          </button>
        )}
      </fieldset>

      <ProblemMessage error={withoutFormFields(error, draft.period)} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : props.budget ? 'Save the budget' : 'Add the budget'}
        </button>
        <button type="button" class="plain" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
