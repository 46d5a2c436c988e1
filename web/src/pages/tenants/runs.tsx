import { useEffect, useRef, useState } from 'preact/hooks'
import { api, hasRole, type SessionUser, type Tenant } from '../../api'
import { formatInstant } from '../../components/format'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { TenantTabs } from '../../components/tenant-tabs'
import { useLoad } from '../../components/use-load'
import { costFileType, type SnapshotRun, sourceInWords, tenantsApi } from './api'
import './tenants.css'

/** Runs on one page of the list. */
const PAGE_SIZE = 20
/** How often the list is asked again while a run of it is queued or running. */
const POLL_MS = 2000

const isUnderWay = (run: SnapshotRun) => run.status === 'Queued' || run.status === 'Running'

/** What started a run, in the words of the tenant's source. */
function triggerWords(run: SnapshotRun, tenant: Tenant | null): string {
  if (run.trigger === 'Import') return 'Import of files'
  const what = tenant?.costSource === 'FocusExport' ? 'pull' : 'collection'
  return run.trigger === 'Scheduled' ? `Daily ${what}` : `${what[0]!.toUpperCase()}${what.slice(1)} asked for`
}

/** A UTC day as people read it: "4 Nov 2026". */
const day = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' })

/**
 * A tenant's collection runs, newest first: each one's trigger, status, time, period and counts, its progress while
 * it runs (the list is asked again until none is under way), its error when it failed, and for imports and pulls of
 * FOCUS files the billing periods it replaced and the FOCUS requirements it checked. Editors start a collection or
 * pull, or, for a tenant of uploaded files, upload one.
 */
export function RunsPage({ tenantId, user }: { tenantId: string; user: SessionUser }) {
  const canRun = hasRole(user, tenantId, 'Editor')
  const [filters, setFilters] = useQueryFilters({ page: '1' })
  const pageNumber = Number(filters.page) || 1
  const { data: tenant, error: tenantError } = useLoad(() => api.tenant(tenantId), [tenantId])
  const {
    data: page,
    loading,
    error: listError,
    reload,
  } = useLoad(() => tenantsApi.runs(tenantId, pageNumber, PAGE_SIZE), [tenantId, pageNumber])
  const [started, setStarted] = useState<SnapshotRun | null>(null)
  const [actionError, setActionError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const noticeRef = useRef<HTMLParagraphElement>(null)

  // While a run is queued or running, the list follows it.
  const underWay = (page?.items ?? []).some(isUnderWay)
  useEffect(() => {
    if (!underWay || loading) return
    const timer = setTimeout(reload, POLL_MS)
    return () => clearTimeout(timer)
  }, [underWay, loading, page])
  useEffect(() => {
    if (started) noticeRef.current?.focus()
  }, [started])

  const begin = async (start: () => Promise<SnapshotRun>) => {
    setActionError(null)
    setStarted(null)
    setBusy(true)
    try {
      const run = await start()
      setStarted(run)
      if (pageNumber === 1) reload()
      else setFilters({ page: '1' })
    } catch (err) {
      setActionError(err)
    } finally {
      setBusy(false)
    }
  }

  const error = listError ?? tenantError
  const source = tenant?.costSource
  const items = page?.items ?? []
  const startedNow = started ? (items.find((r) => r.id === started.id) ?? started) : null

  return (
    <section aria-labelledby="runs-title" class="runs-page">
      <h1 id="runs-title">{tenant ? tenant.name : 'Runs'}</h1>
      <TenantTabs tenantId={tenantId} />
      {tenant && <p class="muted">Costs from: {sourceInWords(tenant)}</p>}

      {tenant && canRun && source !== 'FocusUpload' && (
        <p>
          <button type="button" disabled={busy} onClick={() => begin(() => tenantsApi.trigger(tenantId))}>
            {source === 'FocusExport' ? 'Pull now' : 'Collect now'}
          </button>
        </p>
      )}
      {tenant && canRun && source === 'FocusUpload' && (
        <UploadForm busy={busy} onUpload={(file, type) => begin(() => tenantsApi.upload(tenantId, file, type))} />
      )}
      {tenant && !canRun && <p class="muted">You can see this tenant's runs; starting one needs the Editor role.</p>}
      <ProblemMessage error={actionError} />
      {startedNow && (
        <p class="notice" role="status" tabIndex={-1} ref={noticeRef}>
          {startedNow.trigger === 'Import' ? 'Import' : 'Run'} started — now {startedNow.status.toLowerCase()}
          {startedNow.progress ? ` (${startedNow.progress})` : ''}.
        </p>
      )}

      <ProblemMessage error={error} />
      {loading && !page && (
        <p class="status" role="status">
          Loading runs…
        </p>
      )}
      {page && items.length === 0 && (
        <p class="status">
          {source === 'FocusUpload' ? 'No runs yet: upload a FOCUS file to import its costs.' : 'No runs yet.'}
        </p>
      )}
      {items.length > 0 && (
        <ol class="run-list" aria-label="Runs">
          {items.map((run) => (
            <RunCard key={run.id} run={run} tenant={tenant} started={run.id === started?.id} />
          ))}
        </ol>
      )}
      {page && <Pager page={page} noun="runs" onPage={(n) => setFilters({ page: String(n) })} />}
    </section>
  )
}

/** A FOCUS file to import: CSV, gzip CSV or Parquet, sent with the media type its name implies. */
function UploadForm(props: { busy: boolean; onUpload(file: File, type: string): void }) {
  const [file, setFile] = useState<File | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (event: Event) => {
    event.preventDefault()
    if (!file) return setProblem('Choose a file first.')
    const type = costFileType(file.name)
    if (!type) return setProblem('The file must end in .csv, .gz (gzip CSV) or .parquet.')
    setProblem(null)
    props.onUpload(file, type)
  }
  return (
    <form class="card upload-form" onSubmit={submit} aria-label="Import a file" noValidate>
      <div class="field">
        <label for="upload-file">Upload a FOCUS file</label>
        <input
          id="upload-file"
          type="file"
          accept=".csv,.gz,.parquet"
          onChange={(e) => {
            setProblem(null)
            setFile(e.currentTarget.files?.[0] ?? null)
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'upload-file-hint upload-file-error' : 'upload-file-hint'}
        />
        <p id="upload-file-hint" class="hint">
          A FOCUS 1.0–1.2 export of any cloud: CSV, gzip CSV (.gz) or Parquet. Each billing period it holds replaces the
          one imported before.
        </p>
        {problem && (
          <p id="upload-file-error" class="field-error">
            {problem}
          </p>
        )}
      </div>
      <button type="submit" disabled={props.busy}>
        {props.busy ? 'Uploading…' : 'Upload the file'}
      </button>
    </form>
  )
}

function RunCard({ run, tenant, started }: { run: SnapshotRun; tenant: Tenant | null; started: boolean }) {
  const when = formatInstant(run.completedAt ?? run.startedAt ?? run.requestedAt)
  const label = `${triggerWords(run, tenant)}, ${formatInstant(run.requestedAt)}`
  const accounts = tenant?.costSource === 'AzureConnector' ? 'subscriptions' : 'accounts'
  return (
    <li>
      <article class={`card run-card${started ? ' started' : ''}`} aria-label={label}>
        <div class="run-head">
          <span class={`run-status run-status-${run.status.toLowerCase()}`}>{run.status}</span>
          <strong>{triggerWords(run, tenant)}</strong>
          <span class="muted">
            {run.completedAt ? 'finished' : run.startedAt ? 'started' : 'asked for'} {when}
          </span>
        </div>
        <p class="run-facts">
          {run.periodStart && run.periodEnd && (
            <span>
              Days {day(run.periodStart)} – {day(run.periodEnd)}
            </span>
          )}
          <span>{run.stats.costRows.toLocaleString()} cost rows</span>
          <span>
            {run.stats.subscriptions.toLocaleString()} {accounts}
          </span>
          <span>{run.stats.resources.toLocaleString()} resources</span>
        </p>
        {isUnderWay(run) && (
          <div class="run-progress" role="status" aria-live="polite">
            <p>{run.progress ?? (run.status === 'Queued' ? 'Waiting for a worker…' : 'Running…')}</p>
            <progress aria-label="Run progress" />
          </div>
        )}
        {run.status === 'Failed' && (
          <div class="problem" role="alert">
            <p class="problem-title">The run failed.</p>
            <p>{run.error?.message ?? 'The worker gave no reason.'}</p>
          </div>
        )}
        {run.periods.length > 0 && <PeriodsTable run={run} />}
        {run.conformance.length > 0 && <ConformanceTable run={run} />}
      </article>
    </li>
  )
}

function PeriodsTable({ run }: { run: SnapshotRun }) {
  return (
    <div class="table-scroll">
      <table class="run-table">
        <caption>Billing periods</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">Files</th>
            <th scope="col">Rows</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {run.periods.map((period) => (
            <tr key={period.billingPeriod}>
              <td data-label="Period">{period.billingPeriod}</td>
              <td data-label="Files" class="files">
                {period.files.join(', ')}
              </td>
              <td data-label="Rows" class="number">
                {period.rows.toLocaleString()}
              </td>
              <td data-label="Version">{period.replaced ? 'replaced' : 'new'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function ConformanceTable({ run }: { run: SnapshotRun }) {
  const failing = run.conformance.filter((c) => c.failedRows > 0).length
  return (
    <div class="table-scroll">
      <table class="run-table">
        <caption>
          FOCUS conformance: {failing === 0 ? 'every checked requirement met' : `${failing} requirements not met`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Requirement</th>
            <th scope="col">What it asks</th>
            <th scope="col">Failed rows</th>
          </tr>
        </thead>
        <tbody>
          {run.conformance.map((check) => (
            <tr key={check.requirement} class={check.failedRows > 0 ? 'failing' : undefined}>
              <td data-label="Requirement">{check.requirement}</td>
              <td data-label="What it asks">{check.description}</td>
              <td data-label="Failed rows" class="number">
                {check.failedRows.toLocaleString()}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
