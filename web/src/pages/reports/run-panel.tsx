import { useEffect, useState } from 'preact/hooks'
import { formatInstant, formatMoney } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { downloadUrl, type Format, type ReportRunDetail, reportsApi } from './api'
import { RunStatusBadge } from './run-status'
import { isFinished, runPeriod, STATUS_WORDS } from './words'

/** Rows drawn at first: a run holds up to 10,000, which a phone should not lay out unasked. */
const FIRST_ROWS = 100
const DOWNLOADS: { format: Format; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'pdf', label: 'PDF' },
  { format: 'xlsx', label: 'Excel (XLSX)' },
]

/**
 * One run: its progress, asked again every `pollMs` until it succeeded or failed; then its files and rows, or its
 * error in words. `onChanged` hears every new state, so the history and the definition follow.
 */
export function RunPanel(props: {
  reportId: string
  runId: string
  pollMs: number
  onChanged: (run: ReportRunDetail) => void
}) {
  const { reportId, runId, pollMs, onChanged } = props
  const [run, setRun] = useState<ReportRunDetail | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [allRows, setAllRows] = useState(false)

  useEffect(() => {
    let current = true
    let timer: ReturnType<typeof setTimeout> | undefined
    let lastStatus: string | undefined
    const load = async () => {
      try {
        const detail = await reportsApi.run(reportId, runId)
        if (!current) return
        setRun(detail)
        setError(null)
        if (detail.status !== lastStatus) onChanged(detail)
        lastStatus = detail.status
        if (!isFinished(detail)) timer = setTimeout(load, pollMs)
      } catch (err) {
        if (!current) return
        setError(err)
        // A dropped connection is no reason to stop following the run.
        timer = setTimeout(load, pollMs * 3)
      }
    }
    load()
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [reportId, runId, pollMs, onChanged])

  return (
    <section class="card run-panel" aria-labelledby="run-title">
      <h2 id="run-title">{run ? `Run of ${formatInstant(run.requestedAt)}` : 'Run'}</h2>
      <ProblemMessage error={error} />
      <div role="status" aria-live="polite" class="run-progress">
        {!run && !error && <p class="status">Loading the run…</p>}
        {run && !isFinished(run) && (
          <>
            <p>
              <RunStatusBadge status={run.status} /> {STATUS_WORDS[run.status]}…
            </p>
            <progress aria-label="Run progress" />
          </>
        )}
        {run?.status === 'Succeeded' && (
          <p>
            <RunStatusBadge status={run.status} /> {(run.rowCount ?? 0).toLocaleString()}{' '}
            {run.rowCount === 1 ? 'row' : 'rows'} for {runPeriod(run)}
            {run.completedAt && <span class="muted">, finished {formatInstant(run.completedAt)}</span>}
          </p>
        )}
      </div>
      {run?.status === 'Failed' && (
        <div class="problem" role="alert">
          <p class="problem-title">The run failed.</p>
          <p>{run.error?.message ?? 'The worker gave no reason.'}</p>
        </div>
      )}
      {run?.status === 'Succeeded' && (
        <>
          <nav class="downloads" aria-label="Downloads">
            {DOWNLOADS.map(({ format, label }) => (
              <a key={format} class="download" href={downloadUrl(run, format)} download>
                Download {label}
              </a>
            ))}
          </nav>
          {run.truncated && (
            <p class="notice">
              The run has {(run.rowCount ?? 0).toLocaleString()} rows; the first {run.rows.length.toLocaleString()} are
              shown here. The downloads hold every row.
            </p>
          )}
          {run.rows.length === 0 ? (
            <p class="status">No costs in this period for what the report covers.</p>
          ) : (
            <RunTable run={run} limit={allRows ? run.rows.length : FIRST_ROWS} />
          )}
          {!allRows && run.rows.length > FIRST_ROWS && (
            <button type="button" class="plain more" onClick={() => setAllRows(true)}>
              Show all {run.rows.length.toLocaleString()} rows
            </button>
          )}
        </>
      )}
    </section>
  )
}

/**
 * The rows, money in its row's currency; the table scrolls inside its box, never the page. On a phone each row
 * stacks its cells, each named by its column (`data-label`).
 */
function RunTable({ run, limit }: { run: ReportRunDetail; limit: number }) {
  const currencyColumn = run.columns.indexOf('Currency')
  const moneyColumns = new Set(run.columns.flatMap((title, i) => (title === 'Cost' ? [i] : [])))
  const cell = (row: ReportRunDetail['rows'][number], i: number) => {
    const value = row[i]
    if (typeof value !== 'number') return value ?? ''
    if (moneyColumns.has(i) && currencyColumn >= 0) return formatMoney(value, String(row[currencyColumn]))
    return value.toLocaleString()
  }
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region must be reachable by keyboard to scroll it
    <section class="table-scroll" tabIndex={0} aria-label="Report rows">
      <table class="run-rows">
        <thead>
          <tr>
            {run.columns.map((title) => (
              <th key={title} scope="col">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {run.rows.slice(0, limit).map((row, r) => (
            <tr key={r}>
              {run.columns.map((title, i) => (
                <td key={title} class={typeof row[i] === 'number' ? 'number' : undefined} data-label={title}>
                  {cell(row, i)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
