import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiProblem } from '../../api'
import { ProblemMessage } from '../../components/problem'
import { useTenants } from '../../components/tenant-filter'
import type {
  Dimension,
  Frequency,
  PeriodName,
  Report,
  ReportDraft,
  ReportKind,
  ReportParameters,
  ReportSchedule,
  Weekday,
} from './api'
import { DIMENSIONS, FIELD_LABELS, hasPeriod, KINDS, PERIODS, WEEKDAYS } from './words'

/** What the inputs hold: text as typed, turned into a draft on submit so the server's checks speak. */
interface Fields {
  name: string
  description: string
  kind: ReportKind
  dimension: Dimension
  tagKey: string
  top: string
  count: string
  period: PeriodName
  from: string
  to: string
  wholeOrganisation: boolean
  tenancyIds: string[]
  frequency: '' | Frequency
  hourUtc: string
  dayOfWeek: Weekday
  dayOfMonth: string
}

function fieldsOf(report: Report | null): Fields {
  const p = report?.parameters ?? {}
  const s = report?.schedule
  return {
    name: report?.name ?? '',
    description: report?.description ?? '',
    kind: report?.kind ?? 'CostByDimension',
    dimension: p.dimension ?? 'Service',
    tagKey: p.tagKey ?? '',
    top: p.top === undefined ? '' : String(p.top),
    count: String(p.count ?? 20),
    period: p.period ?? 'Last30Days',
    from: p.from ?? '',
    to: p.to ?? '',
    wholeOrganisation: report ? report.tenancyIds === null : false,
    tenancyIds: report?.tenancyIds ?? [],
    frequency: s?.frequency ?? '',
    hourUtc: String(s?.hourUtc ?? 6),
    dayOfWeek: s?.dayOfWeek ?? 'Monday',
    dayOfMonth: String(s?.dayOfMonth ?? 1),
  }
}

/** A number as typed; what is not one goes to the server as typed, so its error names the field. */
const numberOf = (text: string): number | string =>
  text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text

function draftOf(f: Fields): ReportDraft {
  const parameters: ReportParameters = {}
  if (f.kind === 'TopResources') parameters.count = numberOf(f.count) as number
  if (f.kind === 'CostByDimension') {
    parameters.dimension = f.dimension
    if (f.dimension === 'Tag') parameters.tagKey = f.tagKey
    if (f.top.trim()) parameters.top = numberOf(f.top) as number
  }
  if (hasPeriod(f.kind)) {
    parameters.period = f.period
    if (f.period === 'Custom') Object.assign(parameters, { from: f.from, to: f.to })
  }
  let schedule: ReportSchedule | null = null
  if (f.frequency) {
    schedule = { frequency: f.frequency, hourUtc: Number(f.hourUtc) }
    if (f.frequency === 'Weekly') schedule.dayOfWeek = f.dayOfWeek
    if (f.frequency === 'Monthly') schedule.dayOfMonth = Number(f.dayOfMonth)
  }
  return {
    name: f.name,
    description: f.description.trim() ? f.description : null,
    kind: f.kind,
    parameters,
    tenancyIds: f.wholeOrganisation ? null : f.tenancyIds,
    schedule,
  }
}

/** The field errors of a problem, by the API's field name (`tenancyIds.0` counts as `tenancyIds`). */
function fieldErrorsOf(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return {}
  const out: Record<string, string[]> = {}
  for (const [field, messages] of Object.entries(error.problem.errors)) {
    const key = field.replace(/\.\d+$/, '')
    out[key] = [...(out[key] ?? []), ...messages]
  }
  return out
}

/**
 * Creates or edits a report definition (owners). The server checks everything; its field errors show under the
 * fields in words, and the problem's title above the buttons.
 */
export function ReportForm(props: {
  report: Report | null
  onSaved: (report: Report) => void
  onCancel: () => void
  save: (draft: ReportDraft) => Promise<Report>
}) {
  const [f, setFields] = useState<Fields>(() => fieldsOf(props.report))
  const { tenants, loading: loadingTenants, error: tenantsError } = useTenants()
  const [error, setError] = useState<unknown>(null)
  const [saving, setSaving] = useState(false)
  const nameInput = useRef<HTMLInputElement>(null)

  useEffect(() => {
    nameInput.current?.focus()
  }, [])

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) =>
    setFields((current) => ({ ...current, [key]: value }))
  const errors = fieldErrorsOf(error)
  const shown = new Set<string>()
  /** The errors of a field, under it, tied to the input by aria-describedby. */
  const errorOf = (field: string) => {
    shown.add(field)
    const messages = errors[field]
    if (!messages) return null
    return (
      <p class="field-error" id={`${idOf(field)}-error`}>
        {FIELD_LABELS[field] ?? field} {messages.join('; ')}
      </p>
    )
  }
  const described = (field: string) =>
    errors[field] ? { 'aria-describedby': `${idOf(field)}-error`, 'aria-invalid': true as const } : {}

  const submit = async (event: Event) => {
    event.preventDefault()
    setSaving(true)
    setError(null)
    try {
      props.onSaved(await props.save(draftOf(f)))
    } catch (err) {
      setError(err)
    } finally {
      setSaving(false)
    }
  }

  const editing = props.report !== null
  return (
    <form class="report-form card" onSubmit={submit} noValidate aria-label={editing ? 'Edit report' : 'New report'}>
      <div class="form-grid">
        <div class="field wide">
          <label for="report-name">Name</label>
          <input
            id="report-name"
            ref={nameInput}
            value={f.name}
            maxLength={200}
            onInput={(e) => set('name', e.currentTarget.value)}
            {...described('name')}
          />
          {errorOf('name')}
        </div>
        <div class="field wide">
          <label for="report-description">Description (optional)</label>
          <textarea
            id="report-description"
            rows={2}
            maxLength={2000}
            value={f.description}
            onInput={(e) => set('description', e.currentTarget.value)}
            {...described('description')}
          />
          {errorOf('description')}
        </div>
        <div class="field">
          <label for="report-kind">Kind</label>
          <select
            id="report-kind"
            value={f.kind}
            disabled={editing}
            aria-describedby="report-kind-hint"
            onChange={(e) => set('kind', e.currentTarget.value as ReportKind)}
          >
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
          <p class="hint" id="report-kind-hint">
            {editing ? 'The kind stays as created.' : KINDS.find((k) => k.value === f.kind)?.hint}
          </p>
          {errorOf('kind')}
        </div>
        {f.kind === 'CostByDimension' ? (
          <>
            <div class="field">
              <label for="report-dimension">Group by</label>
              <select
                id="report-dimension"
                value={f.dimension}
                onChange={(e) => set('dimension', e.currentTarget.value as Dimension)}
                {...described('parameters.dimension')}
              >
                {DIMENSIONS.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
              {errorOf('parameters.dimension')}
            </div>
            {f.dimension === 'Tag' && (
              <div class="field">
                <label for="report-tag-key">Tag key</label>
                <input
                  id="report-tag-key"
                  value={f.tagKey}
                  placeholder="e.g. costCentre"
                  onInput={(e) => set('tagKey', e.currentTarget.value)}
                  {...described('parameters.tagKey')}
                />
                {errorOf('parameters.tagKey')}
              </div>
            )}
            <div class="field">
              <label for="report-top">Largest rows only (optional)</label>
              <input
                id="report-top"
                inputMode="numeric"
                value={f.top}
                placeholder="all rows"
                onInput={(e) => set('top', e.currentTarget.value)}
                {...described('parameters.top')}
              />
              {errorOf('parameters.top')}
            </div>
          </>
        ) : f.kind === 'TopResources' ? (
          <div class="field">
            <label for="report-count">Number of resources</label>
            <input
              id="report-count"
              inputMode="numeric"
              value={f.count}
              onInput={(e) => set('count', e.currentTarget.value)}
              {...described('parameters.count')}
            />
            {errorOf('parameters.count')}
          </div>
        ) : null}
        {hasPeriod(f.kind) && (
          <>
            <div class="field">
              <label for="report-period">Period</label>
              <select
                id="report-period"
                value={f.period}
                onChange={(e) => set('period', e.currentTarget.value as PeriodName)}
                {...described('parameters.period')}
              >
                {PERIODS.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
              </select>
              {errorOf('parameters.period')}
            </div>
            {f.period === 'Custom' && (
              <>
                <div class="field">
                  <label for="report-from">From</label>
                  <input
                    id="report-from"
                    type="date"
                    value={f.from}
                    onInput={(e) => set('from', e.currentTarget.value)}
                    {...described('parameters.from')}
                  />
                  {errorOf('parameters.from')}
                </div>
                <div class="field">
                  <label for="report-to">To</label>
                  <input
                    id="report-to"
                    type="date"
                    value={f.to}
                    onInput={(e) => set('to', e.currentTarget.value)}
                    {...described('parameters.to')}
                  />
                  {errorOf('parameters.to')}
                </div>
              </>
            )}
          </>
        )}
      </div>

      <fieldset class="scope" {...described('tenancyIds')}>
        <legend>Covers</legend>
        <label class="choice">
          <input
            type="radio"
            name="report-scope"
            checked={f.wholeOrganisation}
            onChange={() => set('wholeOrganisation', true)}
          />
          The whole organisation (every tenancy, present and future)
        </label>
        <label class="choice">
          <input
            type="radio"
            name="report-scope"
            checked={!f.wholeOrganisation}
            onChange={() => set('wholeOrganisation', false)}
          />
          Some tenancies
        </label>
        {!f.wholeOrganisation && (
          <div class="tenancy-choices">
            {loadingTenants && <p class="status">Loading tenancies…</p>}
            <ProblemMessage error={tenantsError} />
            {!loadingTenants && !tenantsError && tenants.length === 0 && <p class="status">No tenancies yet.</p>}
            {tenants.map((tenant) => (
              <label class="choice" key={tenant.id}>
                <input
                  type="checkbox"
                  checked={f.tenancyIds.includes(tenant.id)}
                  onChange={(e) =>
                    set(
                      'tenancyIds',
                      e.currentTarget.checked
                        ? [...f.tenancyIds, tenant.id]
                        : f.tenancyIds.filter((id) => id !== tenant.id),
                    )
                  }
                />
                {tenant.name}
              </label>
            ))}
          </div>
        )}
        {errorOf('tenancyIds')}
      </fieldset>

      <fieldset class="schedule">
        <legend>Schedule</legend>
        <div class="form-grid">
          <div class="field">
            <label for="report-frequency">Runs</label>
            <select
              id="report-frequency"
              value={f.frequency}
              onChange={(e) => set('frequency', e.currentTarget.value as Fields['frequency'])}
              {...described('schedule')}
            >
              <option value="">Only when asked</option>
              <option value="Daily">Every day</option>
              <option value="Weekly">Every week</option>
              <option value="Monthly">Every month</option>
            </select>
            {errorOf('schedule')}
            {errorOf('schedule.frequency')}
          </div>
          {f.frequency === 'Weekly' && (
            <div class="field">
              <label for="report-day-of-week">Day of the week</label>
              <select
                id="report-day-of-week"
                value={f.dayOfWeek}
                onChange={(e) => set('dayOfWeek', e.currentTarget.value as Weekday)}
                {...described('schedule.dayOfWeek')}
              >
                {WEEKDAYS.map((day) => (
                  <option key={day}>{day}</option>
                ))}
              </select>
              {errorOf('schedule.dayOfWeek')}
            </div>
          )}
          {f.frequency === 'Monthly' && (
            <div class="field">
              <label for="report-day-of-month">Day of the month</label>
              <select
                id="report-day-of-month"
                value={f.dayOfMonth}
                onChange={(e) => set('dayOfMonth', e.currentTarget.value)}
                {...described('schedule.dayOfMonth')}
              >
                {Array.from({ length: 28 }, (_, i) => String(i + 1)).map((day) => (
                  <option key={day}>{day}</option>
                ))}
              </select>
              {errorOf('schedule.dayOfMonth')}
            </div>
          )}
          {f.frequency && (
            <div class="field">
              <label for="report-hour">Hour (UTC)</label>
              <select
                id="report-hour"
                value={f.hourUtc}
                onChange={(e) => set('hourUtc', e.currentTarget.value)}
                {...described('schedule.hourUtc')}
              >
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={String(h)}>
                    {`${String(h).padStart(2, '0')}:00`}
                  </option>
                ))}
              </select>
              {errorOf('schedule.hourUtc')}
            </div>
          )}
        </div>
      </fieldset>

      <ProblemMessage error={error && withoutShownFields(error, shown)} />
      <div class="actions">
        <button type="button" class="plain" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : editing ? 'Save changes' : 'Create report'}
        </button>
      </div>
    </form>
  )
}

const idOf = (field: string) => `report-field-${field.replace(/\W/g, '-')}`

/** The problem with the field errors the form already shows under their fields left out of its list. */
function withoutShownFields(error: unknown, shown: Set<string>): unknown {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return error
  const rest = Object.entries(error.problem.errors).filter(([field]) => !shown.has(field.replace(/\.\d+$/, '')))
  const named = rest.map(([field, messages]) => [FIELD_LABELS[field] ?? field, messages] as const)
  return new ApiProblem({ ...error.problem, errors: named.length ? Object.fromEntries(named) : undefined })
}
