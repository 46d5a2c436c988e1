import { type FocusReadProgress, readFocusFiles } from '../../connectors/focus/read.js'
import type { FocusIssue, FocusParseResult } from '../../connectors/focus/types.js'
import type { KeyedCostRows } from '../../connectors/types.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { isUniqueViolation } from '../../platform/db/errors.js'
import { ApiError } from '../../platform/http/errors.js'
import { roundMoney } from '../../platform/money.js'
import { addDays } from '../../platform/time.js'

import { type CostIngest, FOCUS_SOURCE } from '../costs/public.js'
import { syncInventory } from '../inventory/public.js'
import type { TenantStore } from '../tenants/public.js'

import type { SnapshotRun } from './schemas.js'
import type { SnapshotStore } from './store.js'

export interface FocusImportOutcome {
  run: SnapshotRun
  files: string[]
  rowsRead: number
  rowsRejected: number
  currency: string | null
  totalCost: number
  errors: FocusIssue[]
  warnings: FocusIssue[]
}

/** How far an import has come: what the command line prints and the run's progress says. */
export interface FocusImportProgress {
  rowsRead: number
  rowsPerSecond: number
  file: string
  /** 1-based position of `file` among the import's files. */
  fileNumber: number
  files: number
}

export interface FocusImportOptions {
  skipBadRows?: boolean
  /** Called every PROGRESS_ROWS rows and at the end of each file; the import waits for it. */
  onProgress?: (progress: FocusImportProgress) => Promise<void> | void
}

export class FocusImportRejected extends Error {
  constructor(readonly parsed: FocusParseResult) {
    super(`${parsed.errorCount} row${parsed.errorCount === 1 ? '' : 's'} could not be read; nothing was imported.`)
  }
}

/**
 * Summed cost rows held before they are staged (one transaction each on SQLite). Small on purpose: a held row
 * keeps the text of its chunk of the file alive, and rows held across two young-generation collections move to
 * V8's old space, which grows until a full collection. On the benchmark's 544,000-row estate, batches of 10,000
 * peaked at 373 MB RSS and batches of 2,000 at 317 MB, a little faster.
 */
export const STAGE_BATCH_ROWS = 2_000
/** Rows read between two progress reports (and heartbeats of the run: one short write each). */
export const PROGRESS_ROWS = 50_000
/**
 * The run's lease while importing, renewed at each progress report. Generous, since the final transaction
 * (merging every staged row) renews nothing; should the importing process die, a worker recovers the run once
 * it has expired and records it as failed (an import cannot be resumed without its files).
 */
const IMPORT_LEASE_MS = 10 * 60_000

/**
 * Loads FOCUS cost files into a tenant as one snapshot run with trigger Import. The files are streamed: rows
 * are read, checked and summed a chunk at a time in reader threads, two files side by side (readFocusFiles), and
 * the summed costs are staged in batches on this thread as they come (outside any transaction, like a
 * collection's), so memory stays flat whatever the size of the files. The run is Running meanwhile, its
 * progress saying how far the import has come.
 *
 * All or nothing: with any bad row (unless `skipBadRows`) the staged rows are dropped and the run is recorded
 * as Failed with the first bad row's file and line; otherwise one transaction writes the inventory, moves the
 * staged costs into place and marks the run Succeeded. Until that commits nothing of the import shows. Costs
 * replace what was stored for the same (resource, day, meter), so importing a file twice never double counts.
 */
export function createFocusImporter(deps: {
  tenants: TenantStore
  runs: SnapshotStore
  costs: CostIngest
  clock: Clock
  ids: Ids
}) {
  return async function importFocus(
    tenantId: string,
    files: string[],
    options: FocusImportOptions = {},
  ): Promise<FocusImportOutcome> {
    if (!(await deps.tenants.connectionRow(tenantId))) throw ApiError.notFound(`Tenant ${tenantId}`)
    if (files.length === 0) throw ApiError.badRequest('Name at least one FOCUS file to import.')

    const runId = deps.ids.uuid()
    const now = deps.clock.now().toISOString()
    const workerId = `import:${runId}`
    const stagingKey = `${runId}:1`
    let run: Awaited<ReturnType<SnapshotStore['runs']['begin']>>
    try {
      run = await deps.runs.runs.begin(
        { id: runId, tenantId, trigger: 'Import', deepHistory: 0, requestedAt: now, requestedBy: 'command line' },
        workerId,
        IMPORT_LEASE_MS,
      )
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      throw ApiError.conflict('The tenant has a snapshot run queued or running; import once it has finished.')
    }

    const staged = createStagedTotals()
    const started = performance.now()
    let nextProgressAt = PROGRESS_ROWS
    const report = async ({ file, fileNumber, rowsRead }: FocusReadProgress) => {
      const seconds = (performance.now() - started) / 1000
      const progress: FocusImportProgress = {
        rowsRead,
        rowsPerSecond: seconds > 0 ? Math.round(rowsRead / seconds) : 0,
        file,
        fileNumber,
        files: files.length,
      }
      await deps.runs.runs.heartbeat(runId, workerId, IMPORT_LEASE_MS, progressText(progress))
      await options.onProgress?.(progress)
    }
    const stage = async (rows: KeyedCostRows, progress: FocusReadProgress) => {
      // Once a row is bad (and bad rows are not skipped) nothing will be imported: reading goes on only to
      // name the other bad rows.
      if (progress.errorCount === 0 || options.skipBadRows) await deps.costs.stageKeyed(stagingKey, tenantId, rows)
      staged.add(rows)
    }

    try {
      const parsed = await readFocusFiles(files, {
        batchRows: STAGE_BATCH_ROWS,
        progressRows: PROGRESS_ROWS,
        onCosts: stage,
        onProgress: async (progress) => {
          if (!progress.fileRead && progress.rowsRead < nextProgressAt) return
          nextProgressAt = (Math.floor(progress.rowsRead / PROGRESS_ROWS) + 1) * PROGRESS_ROWS
          await report(progress)
        },
      })
      const fileLevel = parsed.errors.some((e) => e.line === 0)
      if (parsed.errorCount > 0 && (!options.skipBadRows || fileLevel || parsed.currency === null))
        throw new FocusImportRejected(parsed)
      if (staged.rows === 0) throw ApiError.badRequest('The files hold no cost rows.')

      await deps.runs.runs.succeed(run, workerId, async (trx) => {
        const counts = await syncInventory(trx, tenantId, parsed, now, deps.ids, { partial: true })
        const costRows = await deps.costs.mergeStaged(trx, stagingKey)
        await deps.costs.recordCoverage(trx, {
          tenantId,
          source: FOCUS_SOURCE,
          from: staged.periodStart,
          to: staged.periodEnd,
          settledThrough: importSettledThrough(staged.periodEnd),
          at: now,
        })
        await deps.costs.clearStaged(runId, trx)
        return {
          periodStart: staged.periodStart,
          periodEnd: staged.periodEnd,
          statSubscriptions: counts.subscriptions,
          statResourceGroups: counts.resourceGroups,
          statResources: counts.resources,
          statCostRows: costRows,
        }
      })
      return {
        run: (await deps.runs.get(tenantId, runId))!,
        files,
        rowsRead: parsed.rowsRead,
        rowsRejected: parsed.rowsRejected,
        currency: parsed.currency,
        totalCost: roundMoney(staged.cost),
        errors: parsed.errors,
        warnings: parsed.warnings,
      }
    } catch (err) {
      await deps.costs.clearStaged(runId)
      await deps.runs.runs.fail(run, workerId, failureOf(err), { retryAt: null, cause: err })
      throw err
    }
  }
}

/**
 * The last complete day of an import whose newest day is `newest`. A day is complete when the same import holds
 * a later day's rows: an export written during a day (or a billing period still open) holds that day only in part,
 * and nothing in a file says which rows are missing. So an import settles every day but its newest, which a later
 * import covering a later day settles.
 */
export function importSettledThrough(newest: string): string {
  return addDays(newest, -1)
}

/** Period and total of the cost rows staged so far. */
function createStagedTotals() {
  const totals = { rows: 0, cost: 0, periodStart: '', periodEnd: '' }
  return Object.assign(totals, {
    add({ dates, costs }: KeyedCostRows) {
      for (let i = 0; i < costs.length; i++) {
        const date = dates[i]!
        totals.cost += costs[i]!
        if (totals.periodStart === '' || date < totals.periodStart) totals.periodStart = date
        if (date > totals.periodEnd) totals.periodEnd = date
      }
      totals.rows += costs.length
    },
  })
}

/** What the run's progress says, e.g. `importing: 150000 rows read (file 3 of 14), 52000 rows/s`. */
export function progressText(p: FocusImportProgress): string {
  return `importing: ${p.rowsRead} rows read (file ${p.fileNumber} of ${p.files}), ${p.rowsPerSecond} rows/s`
}

/** The failed run's error: the first bad row's file and line, or what went wrong otherwise. */
function failureOf(err: unknown): { code: string; message: string } {
  if (err instanceof FocusImportRejected) {
    const first = err.parsed.errors[0]
    const where = first ? ` First: ${first.file} line ${first.line}: ${first.message}` : ''
    return { code: 'import_rejected', message: `${err.message}${where}` }
  }
  if (err instanceof ApiError) return { code: 'import_rejected', message: err.message }
  return { code: 'import_failed', message: 'The import failed unexpectedly; the error was logged.' }
}
