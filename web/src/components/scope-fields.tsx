import type { ComponentChildren } from 'preact'
import type { Tenant } from '../api'
import type { FormErrors } from './field-errors'

/** What a scope holds in a form: its tenancies (or all of them), tags, a resource group and a service. */
export interface ScopeDraft {
  tenancyIds: string[]
  tags: { key: string; value: string }[]
  resourceGroup: string
  service: string
}

const MAX_TAGS = 10

/** A stored scope as the API returns it (a rule's or a budget's). */
interface StoredScope {
  tenancyIds: string[] | null
  tags?: { key: string; value: string }[]
  resourceGroup?: string | null
  service?: string | null
}

/**
 * A scope in words: its tenancies by name (`everyTenancy` when it covers the organisation), then what narrows it:
 * "Contoso prod; tag team=payments, resource group pay".
 */
export function scopeInWords(scope: StoredScope, tenants: Tenant[], everyTenancy: string): string {
  const where =
    scope.tenancyIds === null
      ? everyTenancy
      : scope.tenancyIds.map((id) => tenants.find((t) => t.id === id)?.name ?? 'a tenancy').join(', ')
  const more = [
    ...(scope.tags ?? []).map((t) => `tag ${t.key}=${t.value}`),
    scope.resourceGroup ? `resource group ${scope.resourceGroup}` : null,
    scope.service ? `service ${scope.service}` : null,
  ].filter(Boolean)
  return more.length > 0 ? `${where}; ${more.join(', ')}` : where
}

/**
 * A scope's fields, as alert rules and budgets take them (`scope.tenancyIds`, `scope.tags.N.key`…): the tenancies
 * the user may choose (and, for owners, every tenancy), tags with the markers' semantics, an optional resource
 * group and service. The form keeps the values; `set` changes one, `setWhole` the choice of every tenancy.
 */
export function ScopeFields(props: {
  id: string
  draft: ScopeDraft
  set<K extends keyof ScopeDraft>(field: K, value: ScopeDraft[K]): void
  whole: { checked: boolean; label: string; offered: boolean; set(checked: boolean): void }
  choosable: Tenant[]
  /** Said when the user administers no tenancy (and has not chosen every one). */
  noTenancy?: string
  tagsLegend: string
  tagsHint: string
  /** Known tag keys and their values, offered as the user types. */
  suggestions?: ReadonlyMap<string, string[]>
  errors: FormErrors
  children?: ComponentChildren
}) {
  const { id: p, draft, set, whole, errors } = props
  const { describedBy, invalid, fieldError } = errors
  const setTag = (i: number, change: Partial<ScopeDraft['tags'][number]>) =>
    set(
      'tags',
      draft.tags.map((t, j) => (j === i ? { ...t, ...change } : t)),
    )
  const valuesOf = (key: string) =>
    [...(props.suggestions ?? new Map<string, string[]>()).entries()].find(
      ([k]) => k.toLowerCase() === key.trim().toLowerCase(),
    )?.[1] ?? []
  return (
    <fieldset class="scope-picker">
      <legend>Scope</legend>
      <fieldset class="check-group" aria-describedby={describedBy('scope.tenancyIds')}>
        <legend>Tenancies</legend>
        {whole.offered && (
          <label class="inline">
            <input type="checkbox" checked={whole.checked} onChange={(e) => whole.set(e.currentTarget.checked)} />
            {whole.label}
          </label>
        )}
        {!whole.checked && props.choosable.length === 0 && props.noTenancy && <p class="status">{props.noTenancy}</p>}
        {!whole.checked &&
          props.choosable.map((tenant) => (
            <label class="inline" key={tenant.id}>
              <input
                type="checkbox"
                checked={draft.tenancyIds.includes(tenant.id)}
                onChange={(e) =>
                  set(
                    'tenancyIds',
                    e.currentTarget.checked
                      ? [...draft.tenancyIds, tenant.id]
                      : draft.tenancyIds.filter((id) => id !== tenant.id),
                  )
                }
              />
              {tenant.name}
            </label>
          ))}
        {fieldError('scope.tenancyIds', 'The tenancies')}
      </fieldset>

      <fieldset class="tag-rows" aria-describedby={`${p}-tags-hint`}>
        <legend>{props.tagsLegend}</legend>
        <p id={`${p}-tags-hint`} class="hint">
          {props.tagsHint}
        </p>
        {draft.tags.map((tag, i) => (
          <div class="tag-row" key={i}>
            <div class="field">
              <label for={`${p}-tag-key-${i}`}>Tag key {i + 1}</label>
              <input
                id={`${p}-tag-key-${i}`}
                list={props.suggestions ? `${p}-tag-keys` : undefined}
                autocomplete="off"
                value={tag.key}
                onInput={(e) => setTag(i, { key: e.currentTarget.value })}
                aria-invalid={invalid(`scope.tags.${i}.key`)}
              />
            </div>
            <div class="field">
              <label for={`${p}-tag-value-${i}`}>Tag value {i + 1}</label>
              <input
                id={`${p}-tag-value-${i}`}
                list={props.suggestions ? `${p}-tag-values-${i}` : undefined}
                autocomplete="off"
                value={tag.value}
                onInput={(e) => setTag(i, { value: e.currentTarget.value })}
                aria-invalid={invalid(`scope.tags.${i}.value`)}
              />
              {props.suggestions && (
                <datalist id={`${p}-tag-values-${i}`}>
                  {valuesOf(tag.key).map((value) => (
                    <option key={value} value={value} />
                  ))}
                </datalist>
              )}
            </div>
            <button
              type="button"
              class="plain"
              aria-label={`Remove tag ${i + 1}`}
              onClick={() =>
                set(
                  'tags',
                  draft.tags.filter((_, j) => j !== i),
                )
              }
            >
              Remove
            </button>
          </div>
        ))}
        {props.suggestions && (
          <datalist id={`${p}-tag-keys`}>
            {[...props.suggestions.keys()].map((key) => (
              <option key={key} value={key} />
            ))}
          </datalist>
        )}
        {fieldError('scope.tags', 'The tags')}
        {draft.tags.length < MAX_TAGS && (
          <button type="button" class="plain" onClick={() => set('tags', [...draft.tags, { key: '', value: '' }])}>
            Add a tag
          </button>
        )}
      </fieldset>

      <div class="form-grid">
        <div class="field">
          <label for={`${p}-group`}>Resource group (optional)</label>
          <input
            id={`${p}-group`}
            maxLength={90}
            value={draft.resourceGroup}
            onInput={(e) => set('resourceGroup', e.currentTarget.value)}
            aria-invalid={invalid('scope.resourceGroup')}
            aria-describedby={describedBy('scope.resourceGroup')}
          />
          {fieldError('scope.resourceGroup', 'The resource group')}
        </div>
        <div class="field">
          <label for={`${p}-service`}>Service (optional)</label>
          <input
            id={`${p}-service`}
            maxLength={200}
            placeholder="e.g. Virtual Machines"
            value={draft.service}
            onInput={(e) => set('service', e.currentTarget.value)}
            aria-invalid={invalid('scope.service')}
            aria-describedby={describedBy('scope.service')}
          />
          {fieldError('scope.service', 'The service')}
        </div>
      </div>
      {props.children}
    </fieldset>
  )
}
