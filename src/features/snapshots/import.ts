import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { basename } from 'node:path'
import type { Kysely } from 'kysely'
import { type FocusReadProgress, readFocusFiles } from '../../connectors/focus/read.js'
import type { FocusIssue, FocusParseResult } from '../../connectors/focus/types.js'
import { providerOf } from '../../connectors/focus/versions.js'
import type { KeyedCostRows } from '../../connectors/types.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { isUniqueViolation } from '../../platform/db/errors.js'
import type { Database } from '../../platform/db/index.js'
import { ApiError } from '../../platform/http/errors.js'
import { roundMoney } from '../../platform/money.js'
import { addDays, monthEndOf } from '../../platform/time.js'
import { type BillingPeriodWrite, type CostIngest, FOCUS_SOURCE, type SourceFile } from '../costs/public.js'
import { syncInventory } from '../inventory/public.js'
import type { TenantStore } from '../tenants/public.js'

import type { BillingPeriodImport, SnapshotRun } from './schemas.js'
import type { SnapshotRunColumns, SnapshotStore } from './store.js'

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
  /** Who asked, for the run: a user's or key's id; the command line by default. */
  requestedBy?: string
  /**
   * The files as the run names them, with their versions (a store's ETag), in the order of `files`; by default
   * each path's own name and the SHA-256 of its bytes.
   */
  sources?: SourceFile[]
  /** Each billing period's own files, where they are known (a pull's manifests): recorded instead of `sources`. */
  periodSources?: Map<string, SourceFile[]>
  /** Called every PROGRESS_ROWS rows and at the end of each file; the import waits for it. */
  onProgress?: (progress: FocusImportProgress) => Promise<void> | void
  /**
   * The import's files are read at once, but nothing is staged, reported or written before `after` settles (a
   * pull's last step, committing); if it rejects, the import fails with its error.
   */
  after?: Promise<unknown>
  /** Called once every file is read, before the import's transaction (a pull then starts reading its next files). */
  onRead?: () => void
}

/** The run an import's work is recorded in: its own (begin), or a worker's pull (a FocusExport tenant's snapshot). */
export interface ImportRunControl {
  runId: string
  /** Where the rows are staged: one attempt's key (`{runId}:{attempt}`). */
  stagingKey: string
  /** Shows progress (and keeps the run's lease). */
  heartbeat(progress: string): Promise<void>
  /** Ends the run Succeeded, `work` writing its data in the same transaction. */
  succeed(work: (trx: Kysely<Database>) => Promise<Partial<SnapshotRunColumns>>): Promise<void>
  /** Records a failure (the caller rethrows); a worker's run is failed by the worker. */
  fail(err: unknown): Promise<void>
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
  /** Begins the import's run (Running, leased to this process); 409 while the tenant has another one. */
  async function begin(tenantId: string, files: string[], options: FocusImportOptions) {
    if (!(await deps.tenants.connectionRow(tenantId))) throw ApiError.notFound(`Tenant ${tenantId}`)
    if (files.length === 0) throw ApiError.badRequest('Name at least one FOCUS file to import.')
    const runId = deps.ids.uuid()
    const requestedBy = options.requestedBy ?? 'command line'
    const requestedAt = deps.clock.now().toISOString()
    const workerId = `import:${runId}`
    try {
      const run = await deps.runs.runs.begin(
        { id: runId, tenantId, trigger: 'Import', deepHistory: 0, requestedAt, requestedBy },
        workerId,
        IMPORT_LEASE_MS,
      )
      const control: ImportRunControl = {
        runId,
        stagingKey: `${runId}:1`,
        heartbeat: async (progress) => {
          await deps.runs.runs.heartbeat(runId, workerId, IMPORT_LEASE_MS, progress)
        },
        succeed: (work) => deps.runs.runs.succeed(run, workerId, work),
        fail: (err) => deps.runs.runs.fail(run, workerId, failureOf(err), { retryAt: null, cause: err }),
      }
      return control
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      throw ApiError.conflict('The tenant has a snapshot run queued or running; import once it has finished.')
    }
  }

  /** The import's work, in `control`'s run. */
  async function execute(
    tenantId: string,
    files: string[],
    options: FocusImportOptions,
    control: ImportRunControl,
  ): Promise<FocusImportOutcome> {
    const { runId, stagingKey } = control
    const now = deps.clock.now().toISOString()
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
      await control.heartbeat(progressText(progress))
      await options.onProgress?.(progress)
    }
    const stage = async (rows: KeyedCostRows, progress: FocusReadProgress) => {
      // Once a row is bad (and bad rows are not skipped) nothing will be imported: reading goes on only to
      // name the other bad rows.
      if (progress.errorCount === 0 || options.skipBadRows) await deps.costs.stageKeyed(stagingKey, tenantId, rows)
      staged.add(rows)
    }

    try {
      // The files' hashes are taken while the reader threads read them (this thread waits for them meanwhile),
      // not in a pass of their own before.
      const hashing = options.sources ? Promise.resolve(options.sources) : Promise.all(files.map(sourceOfPath))
      hashing.catch(() => {}) // awaited below; a failed read fails the reading first
      const parsed = await readFocusFiles(files, {
        batchRows: STAGE_BATCH_ROWS,
        progressRows: PROGRESS_ROWS,
        onCosts: stage,
        after: options.after,
        onProgress: async (progress) => {
          if (!progress.fileRead && progress.rowsRead < nextProgressAt) return
          nextProgressAt = (Math.floor(progress.rowsRead / PROGRESS_ROWS) + 1) * PROGRESS_ROWS
          await report(progress)
        },
      })
      const sources = await hashing
      options.onRead?.()
      // Issues name the files as the run does (an upload's or a pull's temporary copy is no name to show).
      if (options.sources) {
        const names = new Map(files.map((path, i) => [path, sources[i]?.name ?? path]))
        for (const issue of [...parsed.errors, ...parsed.warnings]) issue.file = names.get(issue.file) ?? issue.file
      }
      const fileLevel = parsed.errors.some((e) => e.line === 0)
      if (parsed.errorCount > 0 && (!options.skipBadRows || fileLevel || parsed.currency === null))
        throw new FocusImportRejected(parsed)
      // A pull's period whose files hold no row (a month the export has only begun) is a version too: it
      // replaces what the period held with nothing. Files given otherwise must hold costs.
      if (staged.rows === 0 && !options.periodSources) throw ApiError.badRequest('The files hold no cost rows.')
      const periods: BillingPeriodWrite[] = [...staged.periods].map(([billingPeriod, p]) => ({
        billingPeriod,
        from: p.from,
        to: p.to,
        files: options.periodSources?.get(billingPeriod) ?? sources,
        rows: p.rows,
        runId,
        at: now,
      }))
      for (const [billingPeriod, files] of options.periodSources ?? [])
        if (!staged.periods.has(billingPeriod))
          periods.push({
            billingPeriod,
            from: `${billingPeriod}-01`,
            to: monthEndOf(`${billingPeriod}-01`),
            files,
            rows: 0,
            runId,
            at: now,
          })
      periods.sort((a, b) => a.billingPeriod.localeCompare(b.billingPeriod))
      await control.succeed(async (trx) => {
        const counts = await syncInventory(trx, tenantId, parsed, now, deps.ids, { partial: true })
        // The cloud the data names, for a tenant of files (an Azure connector's tenant is Azure whatever it imports).
        if (parsed.providers.length > 0) await deps.tenants.setProvider(trx, tenantId, providerOf(parsed.providers))
        // The periods' earlier versions go first, and their days are rebuilt with the new rows' (see
        // replaceBillingPeriods): a restated period replaces, a repeated file changes nothing.
        const old = await deps.costs.replaceBillingPeriods(trx, tenantId, periods)
        // The days to rebuild: the new rows' and those the old versions covered (only those when the files held
        // no row: their series are rebuilt without the old rows).
        const days = [old.from, old.to, staged.periodStart, staged.periodEnd].filter((d): d is string => !!d).sort()
        const costRows =
          days.length === 0
            ? 0
            : await deps.costs.mergeStaged(trx, stagingKey, { tenantId, from: days[0]!, to: days.at(-1)! })
        if (staged.rows > 0)
          await deps.costs.recordCoverage(trx, {
            tenantId,
            source: FOCUS_SOURCE,
            from: staged.periodStart,
            to: staged.periodEnd,
            settledThrough: importSettledThrough(staged.periodEnd),
            at: now,
          })
        await deps.costs.clearStaged(runId, trx)
        const imported: BillingPeriodImport[] = periods.map((p) => ({
          billingPeriod: p.billingPeriod,
          files: p.files.map((f) => f.name),
          rows: p.rows,
          replaced: old.replaced.has(p.billingPeriod),
        }))
        return {
          periodStart: staged.periodStart || null,
          periodEnd: staged.periodEnd || null,
          statSubscriptions: counts.subscriptions,
          statResourceGroups: counts.resourceGroups,
          statResources: counts.resources,
          statCostRows: costRows,
          periodsJson: JSON.stringify(imported),
          conformanceJson: JSON.stringify(parsed.conformance),
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
      await control.fail(err)
      throw err
    }
  }

  return {
    /** Imports `files` and answers once the run is over (the command line). */
    async importFocus(tenantId: string, files: string[], options: FocusImportOptions = {}) {
      return execute(tenantId, files, options, await begin(tenantId, files, options))
    },

    /**
     * Begins the import and answers with its run at once; the import goes on in this process (an upload's), and
     * `settled` follows it: with the outcome, or the error the run failed with (recorded in the run either way).
     */
    async startFocusImport(tenantId: string, files: string[], options: FocusImportOptions = {}) {
      const control = await begin(tenantId, files, options)
      const settled = execute(tenantId, files, options, control).then(
        (outcome) => ({ outcome, error: null }),
        (error: unknown) => ({ outcome: null, error }),
      )
      return { run: (await deps.runs.get(tenantId, control.runId))!, settled }
    },

    /** Imports `files` in a run the caller holds (a worker's pull of a FocusExport tenant). */
    importInRun: execute,
  }
}
export type FocusImporter = ReturnType<typeof createFocusImporter>

/** A file's name and the SHA-256 of its bytes: what a run records of a file given by path. */
export async function sourceOfPath(path: string): Promise<SourceFile> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return { name: basename(path), version: `sha256:${hash.digest('hex')}` }
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

/** Period and total of the cost rows staged so far, and each billing period's rows and days. */
function createStagedTotals() {
  const totals = {
    rows: 0,
    cost: 0,
    periodStart: '',
    periodEnd: '',
    periods: new Map<string, { rows: number; from: string; to: string }>(),
  }
  return Object.assign(totals, {
    add({ keys, dates, costs }: KeyedCostRows) {
      for (let i = 0; i < costs.length; i++) {
        const date = dates[i]!
        totals.cost += costs[i]!
        if (totals.periodStart === '' || date < totals.periodStart) totals.periodStart = date
        if (date > totals.periodEnd) totals.periodEnd = date
        // A row without a billing period (a reader of a file that names none) is billed in its day's month.
        const billingPeriod = keys[i]!.billingPeriod || date.slice(0, 7)
        const period = totals.periods.get(billingPeriod)
        if (period === undefined) totals.periods.set(billingPeriod, { rows: 1, from: date, to: date })
        else {
          period.rows++
          if (date < period.from) period.from = date
          if (date > period.to) period.to = date
        }
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
export function failureOf(err: unknown): { code: string; message: string } {
  if (err instanceof FocusImportRejected) {
    const first = err.parsed.errors[0]
    const where = first ? ` First: ${first.file} line ${first.line}: ${first.message}` : ''
    return { code: 'import_rejected', message: `${err.message}${where}` }
  }
  if (err instanceof ApiError) return { code: 'import_rejected', message: err.message }
  return { code: 'import_failed', message: 'The import failed unexpectedly; the error was logged.' }
}
