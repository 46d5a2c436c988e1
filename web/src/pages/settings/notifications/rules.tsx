import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ApiProblem, answer, client, hasRole, type SessionUser, type Tenant } from '../../../api'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { formErrors, withoutFields } from '../../../components/field-errors'
import { formatMoney } from '../../../components/format'
import { ProblemMessage } from '../../../components/problem'
import { ScopeFields, scopeInWords } from '../../../components/scope-fields'
import { useLoad } from '../../../components/use-load'
import { onLinkClick } from '../../../router'
import { budgetsApi } from '../../budgets/api'
import {
  type Channel,
  FREQUENCIES,
  type Frequency,
  notificationsApi,
  type Preview,
  type PreviewInput,
  type Rule,
  type RuleInput,
  type RuleTrigger,
  SEVERITIES,
  type Severity,
  TRIGGER_TYPES,
  type TriggerType,
  WEEKDAYS,
  type Weekday,
} from './api'

const TRIGGER_LABEL: Record<TriggerType, string> = {
  AnomalyRaised: 'An anomaly is raised',
  InsightFound: 'A saving is found',
  Digest: 'A digest of the period',
  BudgetThreshold: 'A budget threshold is crossed',
  PredictionExceeded: 'A change costs more than estimated',
}
const FREQUENCY_LABEL: Record<Frequency, string> = {
  Immediate: 'At once',
  Daily: 'Daily digest',
  Weekly: 'Weekly digest',
}

/** The browser's time zone, the default of a new rule's digests. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}
function timeZones(): string[] {
  try {
    return (Intl as unknown as { supportedValuesOf(key: string): string[] }).supportedValuesOf('timeZone')
  } catch {
    return ['UTC']
  }
}

/** The fields whose messages the form shows beside them (the digest's only while they are on the form). */
const ruleFields = (frequency: Frequency) => [
  'name',
  'channelIds',
  'scope',
  'trigger',
  'frequency',
  ...(frequency === 'Immediate' ? [] : ['digestHour', 'timeZone']),
  ...(frequency === 'Weekly' ? ['digestWeekday'] : []),
]
const withoutRuleFields = (error: unknown, frequency: Frequency) => {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return error
  const shown = Object.keys(error.problem.errors).filter((name) =>
    ruleFields(frequency).some((f) => name === f || name.startsWith(`${f}.`)),
  )
  return withoutFields(error, shown)
}

/** Whether the user may change a rule: owners any; a tenancy's Admins the rules scoped to their tenancies only. */
export function mayManage(user: SessionUser, rule: Pick<Rule, 'scope'>): boolean {
  if (user.isOwner) return true
  const ids = rule.scope.tenancyIds
  return ids !== null && ids.length > 0 && ids.every((id) => hasRole(user, id, 'Admin'))
}

/** An amount of a threshold: in the currency of what it is compared with (each tenancy's billing currency). */
const figure = (amount: number) => amount.toLocaleString(undefined, { maximumFractionDigits: 2 })

function triggerText(trigger: RuleTrigger): string {
  switch (trigger.type) {
    case 'AnomalyRaised': {
      const parts = [
        trigger.minImpact != null ? `over ${figure(trigger.minImpact)}` : null,
        trigger.minImpactPercent != null ? `over ${trigger.minImpactPercent}%` : null,
      ].filter(Boolean)
      const joined = parts.join(trigger.combine === 'all' ? ' and ' : ' or ')
      const severity = trigger.minSeverity ? `, ${trigger.minSeverity} severity or more` : ''
      return `Anomalies${joined ? ` ${joined}` : ''}${severity}`
    }
    case 'InsightFound':
      return trigger.minMonthlySavings != null
        ? `Savings of ${figure(trigger.minMonthlySavings)} a month or more`
        : 'Every saving found'
    case 'Digest':
      return 'A summary of the period'
    case 'BudgetThreshold': {
      const n = trigger.budgetIds?.length ?? 0
      return n === 0 ? 'Thresholds of every budget in scope' : `Thresholds of ${n} ${n === 1 ? 'budget' : 'budgets'}`
    }
    case 'PredictionExceeded': {
      const parts = [
        trigger.minExcess != null ? `by ${figure(trigger.minExcess)} a month` : null,
        trigger.minExcessPercent != null ? `by ${trigger.minExcessPercent}%` : null,
      ].filter(Boolean)
      return `Changes over their estimate${parts.length ? ` ${parts.join(' and ')}` : ''}`
    }
  }
}

const scopeText = (rule: Pick<Rule, 'scope'>, tenants: Tenant[]) => scopeInWords(rule.scope, tenants, 'Every tenancy')

function frequencyText(rule: Rule): string {
  if (rule.frequency === 'Immediate') return 'At once'
  const hour = `${String(rule.digestHour).padStart(2, '0')}:00 ${rule.timeZone}`
  return rule.frequency === 'Daily' ? `Daily at ${hour}` : `${rule.digestWeekday}s at ${hour}`
}

/** The rules the user may see; create, edit and delete those the user may manage. */
export function RulesSection(props: {
  user: SessionUser
  rules: Rule[] | null
  error: unknown
  channels: Channel[] | null
  channelsError: unknown
  tenants: Tenant[]
  reload(): void
}) {
  const [editing, setEditing] = useState<Rule | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Rule | null>(null)
  const { user, rules, tenants } = props
  // Owners make rules for any tenancy, a tenancy's Admins for theirs.
  const mayCreate = user.isOwner || user.tenancyRoles.some((r) => r.role === 'Admin')
  const channelName = (id: string) => props.channels?.find((c) => c.id === id)?.name ?? 'a channel'
  const channelsText = (ids: string[]) =>
    props.channels ? ids.map(channelName).join(', ') : `${ids.length} ${ids.length === 1 ? 'channel' : 'channels'}`

  return (
    <section aria-labelledby="rules-title">
      <div class="section-head">
        <h2 id="rules-title">Rules</h2>
        {mayCreate && editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            New rule
          </button>
        )}
      </div>
      <p class="muted">
        Which events go to which channels: anomalies over a threshold, savings found, or a digest, for the tenancies and
        tags a rule names.
        {!user.isOwner && ' Owners manage every rule; a tenancy\u2019s Admins manage the rules of their tenancies.'}
      </p>
      {editing !== null && (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.id}
          user={user}
          rule={editing === 'new' ? null : editing}
          channels={props.channels}
          channelsError={props.channelsError}
          tenants={tenants}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            props.reload()
          }}
        />
      )}
      <ProblemMessage error={props.error} />
      {!rules && !props.error && <p class="status">Loading rules…</p>}
      {rules?.length === 0 && <p class="status">No rules yet.</p>}
      {rules && rules.length > 0 && (
        <table class="records" aria-labelledby="rules-title">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">When</th>
              <th scope="col">Scope</th>
              <th scope="col">Channels</th>
              <th scope="col">How often</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.id} class={rule.enabled ? undefined : 'inactive'}>
                <th scope="row" data-label="Name">
                  {rule.name}
                  {!rule.enabled && <span class="badge channel-disabled">Off</span>}
                </th>
                <td data-label="When" class="wide">
                  {triggerText(rule.trigger)}
                </td>
                <td data-label="Scope" class="wide">
                  {scopeText(rule, tenants)}
                </td>
                <td data-label="Channels">{channelsText(rule.channelIds)}</td>
                <td data-label="How often">{frequencyText(rule)}</td>
                <td class="row-actions">
                  {mayManage(user, rule) && (
                    <>
                      <button
                        type="button"
                        class="plain"
                        aria-label={`Edit ${rule.name}`}
                        onClick={() => setEditing(rule)}
                      >
                        Edit
                      </button>{' '}
                      <button
                        type="button"
                        class="danger-outline"
                        aria-label={`Delete ${rule.name}`}
                        onClick={() => setDeleting(rule)}
                      >
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete the rule "${deleting.name}"?`}
          confirmLabel="Delete the rule"
          onConfirm={async () => {
            await notificationsApi.deleteRule(deleting.id)
            props.reload()
          }}
          onClose={() => setDeleting(null)}
        >
          <p>No alerts are sent for it from now on. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  )
}

/** The draft's fields that hold a trigger's threshold, as typed. */
type ThresholdKey = 'minImpact' | 'minImpactPercent' | 'minMonthlySavings' | 'minExcess' | 'minExcessPercent'

interface Draft {
  name: string
  enabled: boolean
  channelIds: string[]
  everyTenancy: boolean
  tenancyIds: string[]
  tags: { key: string; value: string }[]
  resourceGroup: string
  service: string
  triggerType: TriggerType
  minImpact: string
  minImpactPercent: string
  combine: 'all' | 'any'
  minSeverity: Severity | ''
  minMonthlySavings: string
  minExcess: string
  minExcessPercent: string
  /** The budgets a BudgetThreshold rule watches; none: every budget in its scope. */
  budgetIds: string[]
  frequency: Frequency
  digestHour: number
  digestWeekday: Weekday
  timeZone: string
  sendWhenQuiet: boolean
}

function draftOf(rule: Rule | null, user: SessionUser): Draft {
  const trigger = rule?.trigger
  const number = (value: number | null | undefined) => (value == null ? '' : String(value))
  return {
    name: rule?.name ?? '',
    enabled: rule?.enabled ?? true,
    channelIds: rule?.channelIds ?? [],
    everyTenancy: rule ? rule.scope.tenancyIds === null : user.isOwner,
    tenancyIds: rule?.scope.tenancyIds ?? [],
    tags: rule?.scope.tags ?? [],
    resourceGroup: rule?.scope.resourceGroup ?? '',
    service: rule?.scope.service ?? '',
    triggerType: trigger?.type ?? 'AnomalyRaised',
    minImpact: number(trigger?.minImpact),
    minImpactPercent: number(trigger?.minImpactPercent),
    combine: trigger?.combine ?? 'any',
    minSeverity: trigger?.minSeverity ?? '',
    minMonthlySavings: number(trigger?.minMonthlySavings),
    minExcess: number(trigger?.minExcess),
    minExcessPercent: number(trigger?.minExcessPercent),
    budgetIds: trigger?.budgetIds ?? [],
    frequency: rule?.frequency ?? 'Immediate',
    digestHour: rule?.digestHour ?? 8,
    digestWeekday: rule?.digestWeekday ?? 'Monday',
    timeZone: rule?.timeZone ?? browserTimeZone(),
    sendWhenQuiet: rule?.sendWhenQuiet ?? false,
  }
}

/** A number field's text as the API takes it: empty is no threshold; anything else is sent for the API to judge. */
const amount = (text: string): number | null => (text.trim() === '' ? null : Number(text))

function inputOf(draft: Draft): RuleInput {
  const trigger: RuleTrigger =
    draft.triggerType === 'AnomalyRaised'
      ? {
          type: 'AnomalyRaised',
          minImpact: amount(draft.minImpact),
          minImpactPercent: amount(draft.minImpactPercent),
          combine: draft.combine,
          minSeverity: draft.minSeverity || null,
        }
      : draft.triggerType === 'InsightFound'
        ? { type: 'InsightFound', minMonthlySavings: amount(draft.minMonthlySavings) }
        : draft.triggerType === 'BudgetThreshold'
          ? { type: 'BudgetThreshold', budgetIds: draft.budgetIds }
          : draft.triggerType === 'PredictionExceeded'
            ? {
                type: 'PredictionExceeded',
                minExcess: amount(draft.minExcess),
                minExcessPercent: amount(draft.minExcessPercent),
              }
            : { type: 'Digest' }
  return {
    name: draft.name,
    enabled: draft.enabled,
    channelIds: draft.channelIds,
    scope: {
      tenancyIds: draft.everyTenancy ? null : draft.tenancyIds,
      tags: draft.tags.filter((t) => t.key.trim() !== '' || t.value.trim() !== ''),
      resourceGroup: draft.resourceGroup.trim() || null,
      service: draft.service.trim() || null,
    },
    trigger,
    frequency: draft.frequency,
    // Digest fields belong to digests (the weekday to weekly ones): the API refuses them elsewhere.
    ...(draft.frequency === 'Immediate'
      ? {}
      : {
          digestHour: draft.digestHour,
          ...(draft.frequency === 'Weekly' ? { digestWeekday: draft.digestWeekday } : {}),
          timeZone: draft.timeZone,
          sendWhenQuiet: draft.sendWhenQuiet,
        }),
  }
}

/** The tags of the chosen tenancies (of every visible one when none is chosen), merged: key → values. */
function useScopeTags(tenancyIds: string[]): Map<string, string[]> {
  const [tags, setTags] = useState(new Map<string, string[]>())
  const key = tenancyIds.slice().sort().join(',')
  useEffect(() => {
    let current = true
    Promise.all(
      tenancyIds
        .slice(0, 20)
        .map((tenantId) =>
          answer(client.GET('/tenants/{tenantId}/tags', { params: { path: { tenantId } } })).catch(() => null),
        ),
    ).then((answers) => {
      if (!current) return
      const merged = new Map<string, string[]>()
      for (const found of answers)
        for (const k of found?.keys ?? []) {
          const known = [...merged.keys()].find((m) => m.toLowerCase() === k.key.toLowerCase()) ?? k.key
          merged.set(known, [...new Set([...(merged.get(known) ?? []), ...k.values])])
        }
      setTags(merged)
    })
    return () => {
      current = false
    }
  }, [key])
  return tags
}

/** How long the form waits after the last change before asking for a preview. */
const PREVIEW_DEBOUNCE_MS = 500

function RuleForm(props: {
  user: SessionUser
  rule: Rule | null
  channels: Channel[] | null
  channelsError: unknown
  tenants: Tenant[]
  onCancel(): void
  onSaved(): void
}) {
  const { user, tenants } = props
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.rule, user))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => setDraft((d) => ({ ...d, [field]: value }))
  const zones = useMemo(timeZones, [])
  // A non-owner scopes a rule to tenancies they administer.
  const choosable = tenants.filter((t) => hasRole(user, t.id, 'Admin'))
  const tagTenancies =
    draft.everyTenancy || draft.tenancyIds.length === 0 ? choosable.map((t) => t.id) : draft.tenancyIds
  const tags = useScopeTags(tagTenancies)
  const input = inputOf(draft)
  const p = props.rule ? `rule-${props.rule.id}` : 'rule-new'

  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    setBusy(true)
    try {
      if (props.rule) await notificationsApi.updateRule(props.rule.id, input)
      else await notificationsApi.createRule(input)
      props.onSaved()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  const errors = formErrors(error, p)
  const { describedBy, invalid, fieldError } = errors
  /** A trigger's threshold: a number of at least 0, with its error under it. */
  const amountField = (id: string, label: string, key: ThresholdKey, errorLabel: string) => (
    <div class="field">
      <label for={`${p}-${id}`}>{label}</label>
      <input
        id={`${p}-${id}`}
        type="number"
        min={0}
        step="any"
        inputMode="decimal"
        value={draft[key]}
        onInput={(e) => set(key, e.currentTarget.value)}
        aria-invalid={invalid(`trigger.${key}`)}
        aria-describedby={describedBy(`trigger.${key}`)}
      />
      {fieldError(`trigger.${key}`, errorLabel)}
    </div>
  )

  return (
    <form class="card settings-form rule-form" onSubmit={submit} aria-labelledby={`${p}-title`}>
      <h3 id={`${p}-title`}>{props.rule ? `Edit "${props.rule.name}"` : 'New rule'}</h3>
      <div class="form-grid">
        <div class="field">
          <label for={`${p}-name`}>Name</label>
          <input
            id={`${p}-name`}
            required
            maxLength={200}
            placeholder="e.g. Payments anomalies"
            value={draft.name}
            onInput={(e) => set('name', e.currentTarget.value)}
            aria-invalid={invalid('name')}
            aria-describedby={describedBy('name')}
          />
          {fieldError('name', 'The name')}
        </div>
        <label class="inline rule-enabled">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
          Enabled
        </label>
      </div>

      <fieldset class="check-group" aria-describedby={describedBy('channelIds')}>
        <legend>Channels</legend>
        <ProblemMessage error={props.channelsError} />
        {!user.isOwner && <p class="hint">Owners add and change channels; choose among them here.</p>}
        {props.channels?.length === 0 && (
          <p class="status">
            {user.isOwner ? 'No channels yet: add one above.' : 'No channels yet: an owner adds them.'}
          </p>
        )}
        {props.channels?.map((channel) => (
          <label class="inline" key={channel.id}>
            <input
              type="checkbox"
              checked={draft.channelIds.includes(channel.id)}
              onChange={(e) =>
                set(
                  'channelIds',
                  e.currentTarget.checked
                    ? [...draft.channelIds, channel.id]
                    : draft.channelIds.filter((id) => id !== channel.id),
                )
              }
            />
            {channel.name} <span class="muted">({channel.type})</span>
          </label>
        ))}
        {fieldError('channelIds', 'The channels')}
      </fieldset>

      <ScopeFields
        id={p}
        draft={draft}
        set={set}
        whole={{
          checked: draft.everyTenancy,
          label: 'Every tenancy, now and later',
          offered: user.isOwner,
          set: (checked) => set('everyTenancy', checked),
        }}
        choosable={choosable}
        tagsLegend="Tags"
        tagsHint="Only anomalies on resources or resource groups carrying every tag (key in any letter case, value exact)."
        suggestions={tags}
        errors={errors}
      >
        {fieldError('scope', 'The scope')}
      </ScopeFields>

      <fieldset>
        <legend>When</legend>
        <div class="form-grid">
          <div class="field">
            <label for={`${p}-trigger`}>Trigger</label>
            <select
              id={`${p}-trigger`}
              value={draft.triggerType}
              onChange={(e) => {
                const type = e.currentTarget.value as TriggerType
                // A digest is sent on a schedule, never at once.
                setDraft((d) => ({
                  ...d,
                  triggerType: type,
                  // A prediction alert is sent once, at once.
                  frequency:
                    type === 'Digest' && d.frequency === 'Immediate'
                      ? 'Daily'
                      : type === 'PredictionExceeded'
                        ? 'Immediate'
                        : d.frequency,
                }))
              }}
            >
              {TRIGGER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TRIGGER_LABEL[type]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {draft.triggerType === 'AnomalyRaised' && (
          <div class="form-grid">
            {amountField('min-impact', 'Impact at least (money)', 'minImpact', 'The impact')}
            {amountField('min-percent', 'Impact at least (percent)', 'minImpactPercent', 'The percentage')}
            <div class="field">
              <label for={`${p}-combine`}>Thresholds</label>
              <select
                id={`${p}-combine`}
                value={draft.combine}
                onChange={(e) => set('combine', e.currentTarget.value as 'all' | 'any')}
              >
                <option value="any">Either is enough</option>
                <option value="all">Both must hold</option>
              </select>
            </div>
            <div class="field">
              <label for={`${p}-severity`}>Severity at least</label>
              <select
                id={`${p}-severity`}
                value={draft.minSeverity}
                onChange={(e) => set('minSeverity', e.currentTarget.value as Severity | '')}
              >
                <option value="">Any severity</option>
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
          </div>
        )}
        {draft.triggerType === 'InsightFound' && (
          <div class="form-grid">
            {amountField('min-savings', 'Monthly savings at least (money)', 'minMonthlySavings', 'The savings')}
          </div>
        )}
        {draft.triggerType === 'PredictionExceeded' && (
          <div class="form-grid">
            {amountField('min-excess', 'Over the estimate by at least (money a month)', 'minExcess', 'The excess')}
            {amountField(
              'min-excess-percent',
              'Over the estimate by at least (percent)',
              'minExcessPercent',
              'The percentage',
            )}
            <p class="hint">
              Markers with a predicted monthly cost (e.g. from Infracost), once 7 settled days follow them: sent once
              per marker when the observed change runs over the estimate by both thresholds.
            </p>
          </div>
        )}
        {draft.triggerType === 'BudgetThreshold' && (
          <BudgetChoices
            id={`${p}-budgets`}
            chosen={draft.budgetIds}
            onChange={(ids) => set('budgetIds', ids)}
            error={fieldError('trigger.budgetIds', 'The budgets')}
          />
        )}
        {draft.triggerType === 'Digest' && (
          <p class="hint">The period's top anomalies by impact with their status, and the new savings found.</p>
        )}
        {fieldError('trigger', 'The trigger')}
      </fieldset>

      <fieldset>
        <legend>How often</legend>
        <div class="type-choices">
          {FREQUENCIES.map((frequency) => (
            <label class="inline" key={frequency}>
              <input
                type="radio"
                name={`${p}-frequency`}
                checked={draft.frequency === frequency}
                onChange={() => set('frequency', frequency)}
              />
              {FREQUENCY_LABEL[frequency]}
            </label>
          ))}
        </div>
        {fieldError('frequency', 'The frequency')}
        {draft.frequency !== 'Immediate' && (
          <div class="form-grid">
            <div class="field">
              <label for={`${p}-hour`}>At</label>
              <select
                id={`${p}-hour`}
                value={String(draft.digestHour)}
                onChange={(e) => set('digestHour', Number(e.currentTarget.value))}
              >
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={String(h)}>
                    {`${String(h).padStart(2, '0')}:00`}
                  </option>
                ))}
              </select>
              {fieldError('digestHour', 'The hour')}
            </div>
            {draft.frequency === 'Weekly' && (
              <div class="field">
                <label for={`${p}-weekday`}>On</label>
                <select
                  id={`${p}-weekday`}
                  value={draft.digestWeekday}
                  onChange={(e) => set('digestWeekday', e.currentTarget.value as Weekday)}
                >
                  {WEEKDAYS.map((day) => (
                    <option key={day} value={day}>
                      {day}
                    </option>
                  ))}
                </select>
                {fieldError('digestWeekday', 'The weekday')}
              </div>
            )}
            <div class="field">
              <label for={`${p}-zone`}>Time zone</label>
              <input
                id={`${p}-zone`}
                list={`${p}-zones`}
                autocomplete="off"
                value={draft.timeZone}
                onInput={(e) => set('timeZone', e.currentTarget.value)}
                aria-invalid={invalid('timeZone')}
                aria-describedby={describedBy('timeZone')}
              />
              <datalist id={`${p}-zones`}>
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
              {fieldError('timeZone', 'The time zone')}
            </div>
          </div>
        )}
        {draft.frequency !== 'Immediate' && (
          <label class="inline">
            <input
              type="checkbox"
              checked={draft.sendWhenQuiet}
              onChange={(e) => set('sendWhenQuiet', e.currentTarget.checked)}
            />
            Send the digest even when the period was quiet
          </label>
        )}
      </fieldset>

      <RulePreview input={input} id={`${p}-preview`} tenants={tenants} />

      <ProblemMessage error={withoutRuleFields(error, draft.frequency)} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : props.rule ? 'Save the rule' : 'Create the rule'}
        </button>
        <button type="button" class="plain" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

/** The budgets a BudgetThreshold rule watches: checkboxes of those the user sees; none chosen watches them all. */
function BudgetChoices(props: {
  id: string
  chosen: string[]
  onChange(ids: string[]): void
  error: ComponentChildren
}) {
  const { data: budgets, error } = useLoad(() => budgetsApi.all(), [])
  return (
    <fieldset class="check-group" aria-describedby={`${props.id}-hint`}>
      <legend>Budgets</legend>
      <p id={`${props.id}-hint`} class="hint">
        Each threshold alerts once a period, when the spend or the forecast reaches it, with the budget's drivers and
        the markers since the period began. None chosen: every budget whose tenancies are all in the rule's scope, now
        and later.
      </p>
      <ProblemMessage error={error} />
      {budgets?.length === 0 && (
        <p class="status">
          No budgets yet:{' '}
          <a href="/budgets" onClick={onLinkClick}>
            add one on the Budgets page
          </a>
          .
        </p>
      )}
      {budgets?.map((budget) => (
        <label class="inline" key={budget.id}>
          <input
            type="checkbox"
            checked={props.chosen.includes(budget.id)}
            onChange={(e) =>
              props.onChange(
                e.currentTarget.checked ? [...props.chosen, budget.id] : props.chosen.filter((id) => id !== budget.id),
              )
            }
          />
          {budget.name}
        </label>
      ))}
      {props.error}
    </fieldset>
  )
}

/**
 * Which of the last 30 days' anomalies the rule, as it stands in the form, would have alerted on: asked again a
 * moment after the last change, an older answer dropped.
 */
function RulePreview(props: { input: PreviewInput; id: string; tenants: Tenant[] }) {
  const body = JSON.stringify(props.input)
  const [state, setState] = useState<{ preview: Preview | null; error: unknown; loading: boolean }>({
    preview: null,
    error: null,
    loading: true,
  })
  const latest = useRef(0)
  useEffect(() => {
    const controller = new AbortController()
    const asked = ++latest.current
    setState((s) => ({ ...s, loading: true }))
    const timer = setTimeout(() => {
      notificationsApi.preview(JSON.parse(body) as PreviewInput, controller.signal).then(
        (preview) => asked === latest.current && setState({ preview, error: null, loading: false }),
        (error) =>
          asked === latest.current &&
          !(error instanceof DOMException && error.name === 'AbortError') &&
          setState({ preview: null, error, loading: false }),
      )
    }, PREVIEW_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [body])

  const items = state.preview?.items ?? []
  const count = state.preview?.count ?? items.length
  return (
    <section class="preview" aria-labelledby={`${props.id}-title`} aria-busy={state.loading}>
      <h4 id={`${props.id}-title`}>Preview: the last 30 days</h4>
      <p role="status" class="muted">
        {state.loading
          ? 'Checking the last 30 days…'
          : state.error
            ? ''
            : count === 0
              ? 'No anomaly of the last 30 days would have alerted.'
              : `${count} ${count === 1 ? 'anomaly' : 'anomalies'} of the last 30 days would have alerted.`}
      </p>
      {state.error instanceof ApiProblem && state.error.problem.status === 400 ? (
        <p class="hint">The preview shows once the rule is complete: {state.error.problem.title}</p>
      ) : (
        <ProblemMessage error={state.error} />
      )}
      {items.length > 0 && (
        <ul class="preview-list">
          {items.map((item) => (
            <li key={item.anomalyId}>
              <a href={`/anomalies/${item.anomalyId}`} onClick={onLinkClick}>
                {item.scope.name}
              </a>
              <span class="muted">
                {' '}
                ({item.scope.kind}) · {props.tenants.find((t) => t.id === item.tenancyId)?.name ?? 'a tenancy'}
              </span>
              <span class={`badge severity-${item.severity.toLowerCase()}`}>{item.severity}</span>{' '}
              {formatMoney(item.impact, item.currency)} ({Math.round(item.impactPercent)}%)
              <span class="muted"> from {item.start}</span>
              {item.matchedInIncident > 1 && (
                <span class="muted"> · one alert for {item.matchedInIncident} related anomalies</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
