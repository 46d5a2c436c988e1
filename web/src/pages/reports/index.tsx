import { useEffect, useRef, useState } from 'preact/hooks'
import type { SessionUser } from '../../api'
import { formatInstant } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { navigate, onLinkClick } from '../../router'
import { reportsApi } from './api'
import { ReportForm } from './form'
import './reports.css'
import { RunStatusBadge } from './run-status'
import { parametersInWords, scheduleInWords, scopeInWords } from './words'

export { ReportPage } from './report'

const PAGE_SIZE = 50

/** The report definitions the user may see (every tenancy they cover), and a new one for owners. */
export function ReportsPage({ user }: { user: SessionUser }) {
  const [page, setPage] = useState(1)
  const { data: reports, error: listError } = useLoad(() => reportsApi.list(page, PAGE_SIZE), [page])
  // The tenancies' names say what each report covers.
  const { tenants, error: tenantsError } = useTenants()
  const error = listError ?? tenantsError
  const [creating, setCreating] = useState(false)

  // Back from the form, the keyboard is where it left: on "New report".
  const newButton = useRef<HTMLButtonElement>(null)
  const wasCreating = useRef(false)
  useEffect(() => {
    if (wasCreating.current && !creating) newButton.current?.focus()
    wasCreating.current = creating
  }, [creating])

  return (
    <section class="reports-page" aria-labelledby="reports-title">
      <div class="page-head">
        <h1 id="reports-title">Reports</h1>
        {user.isOwner && !creating && (
          <button type="button" ref={newButton} onClick={() => setCreating(true)}>
            New report
          </button>
        )}
      </div>
      {creating && (
        <section aria-labelledby="new-report-title">
          <h2 id="new-report-title">New report</h2>
          <ReportForm
            report={null}
            save={reportsApi.create}
            onSaved={(report) => navigate(`/reports/${encodeURIComponent(report.id)}`)}
            onCancel={() => setCreating(false)}
          />
        </section>
      )}
      <ProblemMessage error={error} />
      {!reports && !error && (
        <p class="status" role="status">
          Loading reports…
        </p>
      )}
      {reports?.totalCount === 0 && (
        <p class="status">
          {user.isOwner
            ? 'No reports yet: create one to see costs by service, tag or resource over a period.'
            : 'No reports you can see: a report shows when you have a role on every tenancy it covers.'}
        </p>
      )}
      {reports && reports.items.length > 0 && (
        <ul class="report-list" aria-label="Report definitions">
          {reports.items.map((report) => (
            <li key={report.id} class="report-item">
              <div class="report-item-head">
                <a class="report-name" href={`/reports/${encodeURIComponent(report.id)}`} onClick={onLinkClick}>
                  {report.name}
                </a>
                {report.lastRun ? (
                  <span class="muted">
                    Last run <RunStatusBadge status={report.lastRun.status} />{' '}
                    {formatInstant(report.lastRun.completedAt ?? report.lastRun.requestedAt)}
                  </span>
                ) : (
                  <span class="muted">Never run</span>
                )}
              </div>
              {report.description && <p class="report-description">{report.description}</p>}
              <p class="report-facts muted">
                <span>{parametersInWords(report)}</span>
                <span>{scopeInWords(report.tenancyIds, tenants)}</span>
                <span>{scheduleInWords(report.schedule)}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
      {reports && reports.totalPages > 1 && (
        <nav class="pager" aria-label="Pages of reports">
          <button type="button" class="plain" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {reports.totalPages}
          </span>
          <button type="button" class="plain" disabled={page >= reports.totalPages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
    </section>
  )
}
