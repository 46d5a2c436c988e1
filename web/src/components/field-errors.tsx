import type { ComponentChildren } from 'preact'
import { ApiProblem } from '../api'

/** Validation messages of the schema layer ("must be >= 1") as a sentence reads them. */
export function inWords(message: string): string {
  return message
    .replace(/^must be >= (\S+)$/, 'must be at least $1')
    .replace(/^must be <= (\S+)$/, 'must be at most $1')
    .replace(/^must be > (\S+)$/, 'must be more than $1')
    .replace(/^must be integer$/, 'must be a whole number')
}

/** The server's messages about one field, or an empty list. */
export function fieldMessages(error: unknown, field: string): string[] {
  return error instanceof ApiProblem ? (error.problem.errors?.[field] ?? []) : []
}

/**
 * The error without the messages of the fields shown next to their inputs, so that the problem's title stays and
 * nothing is said twice.
 */
export function withoutFields(error: unknown, fields: string[]): unknown {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return error
  const errors = Object.fromEntries(Object.entries(error.problem.errors).filter(([field]) => !fields.includes(field)))
  return new ApiProblem({ ...error.problem, errors })
}

/** A field's messages under its input; `id` is what the input's aria-describedby points to. */
export function FieldError({ id, label, messages }: { id: string; label: string; messages: string[] }) {
  if (messages.length === 0) return null
  return (
    <p id={id} class="field-error">
      {messages.map((m) => `${label} ${inWords(m)}.`).join(' ')}
    </p>
  )
}

/** The server's messages of a field and of the fields under it ("scope.tags" holds "scope.tags.0.key"). */
export function messagesUnder(error: unknown, field: string): string[] {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return []
  return Object.entries(error.problem.errors)
    .filter(([name]) => name === field || name.startsWith(`${field}.`))
    .flatMap(([, messages]) => messages)
}

/** How a form shows the server's messages beside its fields: each input's state, its description and its error. */
export interface FormErrors {
  /** The id of a field's error paragraph. */
  errorId(field: string): string
  /** An input's aria-describedby: its hint and, when there is one, its error. */
  describedBy(field: string, hint?: string): string | undefined
  invalid(field: string): true | undefined
  /** The field's messages as sentences ("The amount must be more than 0."), or nothing. */
  fieldError(field: string, label: string): ComponentChildren
}

/** The FormErrors of a form whose ids start with `prefix`, for the server's `error` (a problem, or anything). */
export function formErrors(error: unknown, prefix: string): FormErrors {
  const errorId = (field: string) => `${prefix}-${field.replaceAll('.', '-')}-error`
  const has = (field: string) => messagesUnder(error, field).length > 0
  return {
    errorId,
    describedBy: (field, hint) =>
      [hint, has(field) ? errorId(field) : undefined].filter(Boolean).join(' ') || undefined,
    invalid: (field) => (has(field) ? true : undefined),
    fieldError: (field, label) => (
      <FieldError id={errorId(field)} label={label} messages={messagesUnder(error, field)} />
    ),
  }
}
