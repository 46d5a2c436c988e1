import type { Page } from '../api'
import './findings.css'

/** "Page 2 of 5 (112 anomalies)" with Previous and Next, for any paged list. */
export function Pager(props: { page: Page<unknown>; noun: string; onPage(page: number): void }) {
  const { page, totalPages, totalCount } = props.page
  if (totalPages <= 1) return null
  return (
    <nav class="pager" aria-label={`Pages of ${props.noun}`}>
      <button type="button" class="plain" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page} of {totalPages} ({totalCount} {props.noun})
      </span>
      <button type="button" class="plain" disabled={page >= totalPages} onClick={() => props.onPage(page + 1)}>
        Next page
      </button>
    </nav>
  )
}
