import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { hasRole, type SessionUser } from '../../api'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { formatInstant } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { useTenants } from '../../components/tenant-filter'
import { navigate, onLinkClick } from '../../router'
import { type Report, type ReportRun, type ReportRunDetail, reportsApi } from './api'
import { ReportForm } from './form'
import { RunPanel } from './run-panel'
import { RunStatusBadge } from './run-status'
import { isFinished, kindLabel, parametersInWords, runPeriod, scheduleInWords, scopeInWords } from './words'

const RUNS_PAGE_SIZE = 20
/** How often a run in progress is asked for its status: often enough to feel live, rare enough to cost nothing. */
const POLL_MS = 1000

/** A run as listed, without the data of the single get. */
function recordOf({ columns: _c, rows: _r, truncated: _t, ...run }: ReportRunDetail): ReportRun {
  return run
}

/**
 * One report: its definition, "Run now" with the run's progress until it ends, the files and rows of a succeeded
 * run (or a failed run's error), and the run history, newest first. Owners edit and delete it here.
 */
export function ReportPage({ reportId, user }: { reportId: string; user: SessionUser }) {
  const [report, setReport] = useState<Report | null>(null)
  const { tenants } = useTenants()
  const [error, setError] = useState<unknown>(null)
  const [runs, setRuns] = useState<ReportRun[] | null>(null)
  const [runsTotal, setRunsTotal] = useState(0)
  const [runsError, setRunsError] = useState<unknown>(null)
  const [shownRunId, setShownRunId] = useState<string | null>(null)
  const [runNowError, setRunNowError] = useState<unknown>(null)
  const [starting, setStarting] = useState(false)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const editButton = useRef<HTMLButtonElement>(null)

  /** Page 1 replaces the history; a later page adds older runs (a run started meanwhile is not repeated). */
  const loadRuns = useCallback(
    async (page = 1) => {
      try {
        const answer = await reportsApi.runs(reportId, page, RUNS_PAGE_SIZE)
        setRuns((current) => {
          if (page === 1 || !current) return answer.items
          const known = new Set(current.map((r) => r.id))
          return [...current, ...answer.items.filter((r) => !known.has(r.id))]
        })
        setRunsTotal(answer.totalCount)
        setRunsError(null)
      } catch (err) {
        setRunsError(err)
      }
    },
    [reportId],
  )

  useEffect(() => {
    setReport(null)
    setError(null)
    reportsApi.get(reportId).then((answer) => {
      setReport(answer)
      setShownRunId(answer.lastRun?.id ?? null)
    }, setError)
    loadRuns()
  }, [reportId, loadRuns])

  /** What the run's poll learnt: the history shows the same status. */
  const onRunChanged = useCallback((run: ReportRunDetail) => {
    const record = recordOf(run)
    setRuns((current) => current?.map((r) => (r.id === record.id ? record : r)) ?? current)
  }, [])

  // Back from the form, the keyboard is where it left: on Edit.
  const wasEditing = useRef(false)
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus()
    wasEditing.current = editing
  }, [editing])

  const runNow = async () => {
    setStarting(true)
    setRunNowError(null)
    try {
      const run = await reportsApi.runNow(reportId)
      setRuns((current) => [run, ...(current ?? [])])
      setRunsTotal((n) => n + 1)
      setShownRunId(run.id)
    } catch (err) {
      setRunNowError(err)
    } finally {
      setStarting(false)
    }
  }

  if (!report) {
    return (
      <section class="reports-page" aria-labelledby="report-title">
        <p class="breadcrumb">
          <a href="/reports" onClick={onLinkClick}>
            Reports
          </a>
        </p>
        <h1 id="report-title">Report</h1>
        <ProblemMessage error={error} />
        {!error && (
          <p class="status" role="status">
            Loading the report…
          </p>
        )}
      </section>
    )
  }

  const canRun =
    report.tenancyIds === null ? user.isOwner : report.tenancyIds.every((id) => hasRole(user, id, 'Editor'))
  const shownRun = runs?.find((r) => r.id === shownRunId) ?? null
  const inProgress = shownRun !== null && !isFinished(shownRun)

  return (
    <section class="reports-page" aria-labelledby="report-title">
      <p class="breadcrumb">
        <a href="/reports" onClick={onLinkClick}>
          Reports
        </a>
      </p>
      <div class="page-head">
        <h1 id="report-title">{report.name}</h1>
        <div class="head-actions">
          {canRun && (
            <button type="button" onClick={runNow} disabled={starting || inProgress}>
              {starting ? 'Starting…' : 'Run now'}
            </button>
          )}
          {user.isOwner && !editing && (
            <>
              <button type="button" class="plain" ref={editButton} onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" class="danger" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      <ProblemMessage error={error} />
      <ProblemMessage error={runNowError} />

      {editing ? (
        <section aria-labelledby="edit-report-title">
          <h2 id="edit-report-title">Edit the definition</h2>
          <ReportForm
            report={report}
            save={(draft) => reportsApi.update(report.id, draft)}
            onSaved={(saved) => {
              setReport(saved)
              setEditing(false)
            }}
            onCancel={() => setEditing(false)}
          />
        </section>
      ) : (
        <div class="card definition">
          {report.description && <p class="report-description">{report.description}</p>}
          <dl class="facts">
            <dt>Kind</dt>
            <dd>{kindLabel(report.kind)}</dd>
            <dt>Shows</dt>
            <dd>{parametersInWords(report)}</dd>
            <dt>Covers</dt>
            <dd>{scopeInWords(report.tenancyIds, tenants)}</dd>
            <dt>Schedule</dt>
            <dd>{scheduleInWords(report.schedule)}</dd>
            <dt>Created</dt>
            <dd>{formatInstant(report.createdAt)}</dd>
          </dl>
        </div>
      )}

      {shownRun ? (
        <RunPanel
          key={shownRun.id}
          reportId={report.id}
          runId={shownRun.id}
          pollMs={POLL_MS}
          onChanged={onRunChanged}
        />
      ) : (
        runs?.length === 0 && (
          <p class="status">{canRun ? 'Not run yet: “Run now” makes its first files.' : 'Not run yet.'}</p>
        )
      )}

      <section aria-labelledby="history-title">
        <h2 id="history-title">Run history</h2>
        <ProblemMessage error={runsError} />
        {!runs && !runsError && <p class="status">Loading runs…</p>}
        {runs?.length === 0 && <p class="status">No runs yet.</p>}
        {runs && runs.length > 0 && (
          <ol class="run-history" aria-label="Runs, newest first">
            {runs.map((run) => (
              <li key={run.id}>
                <button
                  type="button"
                  class="run-entry"
                  aria-pressed={run.id === shownRunId}
                  onClick={() => setShownRunId(run.id)}
                >
                  <span class="run-when">{formatInstant(run.requestedAt)}</span>
                  <RunStatusBadge status={run.status} />
                  <span class="muted">{runPeriod(run)}</span>
                  <span class="muted">{run.rowCount === null ? '' : `${run.rowCount.toLocaleString()} rows`}</span>
                </button>
              </li>
            ))}
          </ol>
        )}
        {runs && runs.length < runsTotal && (
          <button
            type="button"
            class="plain more"
            onClick={() => loadRuns(Math.floor(runs.length / RUNS_PAGE_SIZE) + 1)}
          >
            Show older runs
          </button>
        )}
      </section>

      {deleting && (
        <ConfirmDialog
          title={`Delete “${report.name}”?`}
          confirmLabel="Delete report"
          cancelLabel="Keep it"
          onConfirm={async () => {
            await reportsApi.remove(report.id)
            navigate('/reports')
          }}
          onClose={() => setDeleting(false)}
        >
          <p>Its definition, every run and their files go for good. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  )
}
