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
