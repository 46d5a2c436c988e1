import type { RunStatus } from './api'

/** A run's status as a coloured word (the colour repeats the word, never replaces it). */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <span class={`run-status run-status-${status.toLowerCase()}`}>{status}</span>
}
