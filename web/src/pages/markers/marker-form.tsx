import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ApiProblem, type EventCategory } from '../../api'
import { CATEGORY_COLOURS } from '../../components/chart/markers'
import { ProblemMessage } from '../../components/problem'
import { type MarkerInput, type MarkerRecord, markersApi, type TagKey } from './api'

/** The specification's meaning of each category: a labelling convention the service does not check. */
export const CATEGORY_MEANINGS: Record<EventCategory, string> = {
  Deployment: 'Application or service code shipping to an environment.',
  Launch: 'A feature going live, a flag flip, or an A/B test starting.',
  Campaign: 'A marketing push that drives traffic.',
  Configuration: 'Non-code infrastructure change.',
  Incident: 'A production issue or outage.',
  Other: 'Anything else.',
}
const CATEGORIES = Object.keys(CATEGORY_MEANINGS) as EventCategory[]

/** The form's fields, each with its label for messages in words ("Title must not be empty"). */
const FIELD_LABELS: Record<string, string> = {
  category: 'Category',
  occurredAt: 'Date and time',
  title: 'Title',
  description: 'Description',
  tagKey: 'Tag key',
  tagValue: 'Tag value',
  clearTag: 'Tag filter',
}

/** `YYYY-MM-DDTHH:MM` of an instant in UTC, what a datetime-local input holds. */
function utcInputValue(iso: string): string {
  return iso.slice(0, 16)
}

interface Draft {
  category: EventCategory
  when: string
  title: string
  description: string
  tagKey: string
  tagValue: string
}

function draftOf(marker: MarkerRecord | null): Draft {
  if (!marker) {
    return {
      category: 'Deployment',
      when: utcInputValue(new Date().toISOString()),
      title: '',
      description: '',
      tagKey: '',
      tagValue: '',
    }
  }
  return {
    category: marker.category,
    when: utcInputValue(marker.occurredAt),
    title: marker.title,
    description: marker.description ?? '',
    tagKey: marker.tagKey ?? '',
    tagValue: marker.tagValue ?? '',
  }
}

/**
 * Creates a marker, or edits `marker`. Times are entered and shown in UTC, as the API keeps them. Field errors of
 * the answer show next to their fields; the tag key and value suggest the tenant's real tags.
 */
export function MarkerForm(props: {
  tenantId: string
  marker: MarkerRecord | null
  tags: TagKey[]
  onSaved(marker: MarkerRecord): void
  onCancel(): void
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.marker))
  const [error, setError] = useState<unknown>(null)
  const [saving, setSaving] = useState(false)
  const [fullValues, setFullValues] = useState<{ key: string; values: string[] } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    setDraft(draftOf(props.marker))
    setError(null)
    heading.current?.focus()
  }, [props.marker])

  const chosenKey = props.tags.find((t) => t.key.toLowerCase() === draft.tagKey.trim().toLowerCase())
  // A key with more values than the overview carries: ask for that key's values in full.
  useEffect(() => {
    if (!chosenKey?.valuesTruncated || fullValues?.key === chosenKey.key) return
    markersApi.tags(props.tenantId, chosenKey.key).then(
      (answer) => setFullValues({ key: chosenKey.key, values: answer.keys[0]?.values ?? [] }),
      () => {}, // the overview's values stay as suggestions
    )
  }, [chosenKey?.key])
  const valueSuggestions = useMemo(() => {
    if (!chosenKey) return []
    return fullValues?.key === chosenKey.key ? fullValues.values : chosenKey.values
  }, [chosenKey, fullValues])

  const fieldErrors: Record<string, string[]> =
    error instanceof ApiProblem && error.problem.errors ? error.problem.errors : {}
  const set = (field: keyof Draft) => (e: Event) =>
    setDraft({ ...draft, [field]: (e.currentTarget as HTMLInputElement).value })

  async function submit(e: Event) {
    e.preventDefault()
    // A half tag filter would be refused on create and, on edit, keep the stored half: ask for the other half here.
    const key = draft.tagKey.trim()
    if (Boolean(key) !== Boolean(draft.tagValue)) {
      const errors: Record<string, string[]> = key
        ? { tagValue: ['is required when a tag key is set'] }
        : { tagKey: ['is required when a tag value is set'] }
      setError(new ApiProblem({ title: 'One or more fields are invalid.', status: 400, errors }))
      return
    }
    setSaving(true)
    setError(null)
    const input: MarkerInput = {
      category: draft.category,
      // The input holds a UTC wall-clock time; the API takes RFC 3339.
      occurredAt: draft.when ? `${draft.when}:00Z` : '',
      title: draft.title,
      description: draft.description,
      tagKey: draft.tagKey.trim(),
      tagValue: draft.tagValue,
    }
    try {
      const saved = props.marker
        ? await markersApi.update(props.tenantId, props.marker, input)
        : await markersApi.create(props.tenantId, input)
      props.onSaved(saved)
    } catch (err) {
      setError(err)
    } finally {
      setSaving(false)
    }
  }

  /** A field's messages in words, tied to the field by aria-describedby. */
  const messages = (field: string) =>
    fieldErrors[field] && (
      <p id={`${field}-error`} class="field-error">
        {fieldErrors[field]!.map((m) => `${FIELD_LABELS[field] ?? field} ${m}.`).join(' ')}
      </p>
    )
  const describedBy = (field: string, hint?: string) =>
    [hint, fieldErrors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ') || undefined
  const otherErrors = Object.keys(fieldErrors).filter((f) => !(f in FIELD_LABELS))
  const summary =
    error instanceof ApiProblem && Object.keys(fieldErrors).length > 0 && otherErrors.length === 0 ? (
      <div class="problem" role="alert">
        <p class="problem-title">{error.problem.title}</p>
        <p>See the messages next to the fields.</p>
      </div>
    ) : (
      <ProblemMessage error={error} />
    )

  return (
    <form class="card marker-form" onSubmit={submit} noValidate aria-labelledby="marker-form-title">
      <h2 id="marker-form-title" tabIndex={-1} ref={heading}>
        {props.marker ? `Edit “${props.marker.title}”` : 'New marker'}
      </h2>
      {summary}

      <fieldset class="categories" aria-describedby={describedBy('category')}>
        <legend>Category</legend>
        {CATEGORIES.map((category) => (
          <label key={category} class="category-option">
            <input
              type="radio"
              name="category"
              value={category}
              checked={draft.category === category}
              onChange={() => setDraft({ ...draft, category })}
              aria-labelledby={`category-${category}`}
              aria-describedby={`meaning-${category}`}
            />
            <span class="swatch" style={{ background: CATEGORY_COLOURS[category] }} aria-hidden="true" />
            <span class="category-text">
              <span id={`category-${category}`} class="category-name">
                {category}
              </span>
              <span id={`meaning-${category}`} class="hint">
                {CATEGORY_MEANINGS[category]}
              </span>
            </span>
          </label>
        ))}
        {messages('category')}
      </fieldset>

      <div class="form-grid">
        <div class="field">
          <label for="marker-when">Date and time (UTC)</label>
          <input
            id="marker-when"
            type="datetime-local"
            required
            value={draft.when}
            onInput={set('when')}
            aria-invalid={fieldErrors.occurredAt ? true : undefined}
            aria-describedby={describedBy('occurredAt', 'marker-when-hint')}
          />
          <p id="marker-when-hint" class="hint">
            In UTC, not your local time: it is {new Date().toISOString().slice(11, 16)} UTC now.
          </p>
          {messages('occurredAt')}
        </div>
        <div class="field">
          <label for="marker-title">Title</label>
          <input
            id="marker-title"
            type="text"
            required
            value={draft.title}
            onInput={set('title')}
            aria-invalid={fieldErrors.title ? true : undefined}
            aria-describedby={describedBy('title', 'marker-title-hint')}
          />
          <p id="marker-title-hint" class="hint">
            Short and human-readable, e.g. “Deploy checkout 4.2”.
          </p>
          {messages('title')}
        </div>
      </div>

      <div class="field">
        <label for="marker-description">Description (optional)</label>
        <textarea
          id="marker-description"
          rows={3}
          value={draft.description}
          onInput={set('description')}
          aria-invalid={fieldErrors.description ? true : undefined}
          aria-describedby={describedBy('description')}
        />
        {messages('description')}
      </div>

      <fieldset class="tag-filter" aria-describedby="tag-hint">
        <legend>Tag filter (optional)</legend>
        <p id="tag-hint" class="hint">
          Without a tag the marker is on every chart of the tenant. With one, it is on the broad charts and on the
          charts of resources and resource groups carrying that tag (key in any letter case, value exact).
        </p>
        <div class="form-grid">
          <div class="field">
            <label for="marker-tag-key">Tag key</label>
            <input
              id="marker-tag-key"
              type="text"
              list="tag-keys"
              autocomplete="off"
              value={draft.tagKey}
              onInput={set('tagKey')}
              aria-invalid={fieldErrors.tagKey ? true : undefined}
              aria-describedby={describedBy('tagKey')}
            />
            <datalist id="tag-keys">
              {props.tags.map((t) => (
                <option key={t.key} value={t.key} />
              ))}
            </datalist>
            {messages('tagKey')}
          </div>
          <div class="field">
            <label for="marker-tag-value">Tag value</label>
            <input
              id="marker-tag-value"
              type="text"
              list="tag-values"
              autocomplete="off"
              value={draft.tagValue}
              onInput={set('tagValue')}
              aria-invalid={fieldErrors.tagValue ? true : undefined}
              aria-describedby={describedBy('tagValue')}
            />
            <datalist id="tag-values">
              {valueSuggestions.map((value) => (
                <option key={value} value={value} />
              ))}
            </datalist>
            {messages('tagValue')}
            {messages('clearTag')}
          </div>
        </div>
      </fieldset>

      <div class="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : props.marker ? 'Save changes' : 'Create marker'}
        </button>
        <button type="button" class="plain" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
