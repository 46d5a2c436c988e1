import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { BlobStore } from '../../platform/blobs/store.js'
import type { Clock } from '../../platform/clock.js'
import type { Database, DialectName } from '../../platform/db/index.js'
import { defineRunKind, type RunKind } from '../../platform/runs/worker.js'
import { toDay } from '../../platform/time.js'

import { createCostReads } from '../costs/read/index.js'
import { inventoryForCosts, resourceFactsBetween } from '../inventory/public.js'

import { REPORT_KINDS } from './kinds/index.js'
import type { ReportSource } from './kinds/types.js'
import { FORMATS, type Format } from './render/document.js'
import { RenderError, renderRun, type STREAMING_RENDERERS } from './render/pipeline.js'
import { anomaliesRaised, openInsights, REPORT_RUNS, type ReportRunColumns, type ReportStore } from './store.js'

/** Where a run's file of a format lives in the blob store: one key per run and format, whichever worker writes it. */
export function fileKey(runId: string, format: Format): string {
  return `report-runs/${runId}/report.${FORMATS[format].extension}`
}

/**
 * A run renders into a folder of its own in the system's temporary folder, named after the run: a process killed
 * mid-way leaves it behind, and whoever recovers the run, retries it or starts a worker later finds it by name.
 */
const RENDER_FOLDER = 'costwatch-report-'
const RENDER_FOLDER_OF = /^costwatch-report-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-/

/** The temporary folders of runs on this machine, by run id. */
async function renderFolders(): Promise<Map<string, string[]>> {
  const byRun = new Map<string, string[]>()
  for (const name of await readdir(tmpdir())) {
    const runId = RENDER_FOLDER_OF.exec(name)?.[1]
    if (runId) byRun.set(runId, [...(byRun.get(runId) ?? []), join(tmpdir(), name)])
  }
  return byRun
}

/** Removes what the runs left in the temporary folder (an earlier attempt killed mid-way). */
export async function removeRenderFolders(runIds: readonly string[]): Promise<void> {
  const folders = await renderFolders()
  for (const runId of runIds)
    for (const folder of folders.get(runId) ?? []) await rm(folder, { recursive: true, force: true })
}

/** The blob store refused a run's file: what the run records, naming the format; the store's own error is logged. */
export class StoreError extends Error {
  constructor(
    readonly format: Format,
    override readonly cause: unknown,
  ) {
    super(`The ${format.toUpperCase()} file could not be stored in the file store; the error was logged.`)
  }
}

/** The definition cannot be run as it is stored (a kind since removed): no attempt can go better. */
export class DefinitionError extends Error {}

/**
 * What a report reads: costs through the cost read path, each batch's resource facts through the inventory's store,
 * anomalies and insights through their stores.
 */
export function reportSource(db: Kysely<Database>, dialect: DialectName): ReportSource {
  const costs = createCostReads(db, inventoryForCosts(db, dialect))
  return {
    async *resourceCosts(tenancyId, period) {
      for await (const batch of costs.resourceCostBatches(tenancyId, period.from, period.to)) {
        const facts = await resourceFactsBetween(db, tenancyId, batch[0]!.resourceKey, batch.at(-1)!.resourceKey)
        yield { costs: batch, facts }
      }
    },
    async dailyTotals(tenancyIds, period) {
      const all = await Promise.all(
        tenancyIds.map((id) => costs.daily(id, { kind: 'tenant' }, period.from, period.to, null)),
      )
      return all.flat().map((p) => ({ date: p.date, currency: p.currency, cost: p.cost }))
    },
    anomalies: (tenancyIds, period) => anomaliesRaised(db, tenancyIds, period.from, period.to),
    openInsights: (tenancyIds, asOf) => openInsights(db, tenancyIds, asOf),
  }
}

/**
 * The report run kind: reads the definition, renders the three files in one pass (render/pipeline.ts), stores
 * them under keys derived from the run id (a run taken over after its worker died overwrites, never adds), and
 * records the row count and preview with the success. A failed attempt (a renderer, the file store, the
 * database) removes whatever files it stored, so a run never has part of its files, and is retried with the
 * backoff of every run kind; the last attempt's failure is what the run records, naming the format.
 */
export function reportRunKind(deps: {
  store: ReportStore
  blobs: BlobStore
  source: ReportSource
  clock: Clock
  /** Replaces the renderer of a streamed format (tests inject one that fails). */
  renderers?: Partial<typeof STREAMING_RENDERERS>
}): RunKind {
  const { store, blobs, source, clock } = deps
  return defineRunKind<ReportRunColumns>({
    ...REPORT_RUNS,
    async handle(claimed, ctx) {
      const run = await store.runById(claimed.id)
      const report = run ? await store.byId(run.reportId) : null
      if (!run || !report) return // deleted meanwhile: nothing to render
      const kind = REPORT_KINDS[report.kind]
      if (!kind) throw new DefinitionError(`The report's kind ${report.kind} is no longer known.`)
      const parsed = kind.parse(report.parameters)
      if (!parsed.ok) throw new DefinitionError("The report's parameters are no longer valid; edit the report.")
      // As of the day the run was requested, so a retry covers the same days.
      const period = kind.period(parsed.value, toDay(new Date(run.requestedAt)))
      // What the run recorded when it was queued, which its readers are checked against: never the report's
      // tenancies of now, which an owner may have changed since.
      const covered = (await store.runScope(run.id))?.tenancyIds ?? []
      const tenancies =
        covered === 'all' ? await store.organisationTenancies(report.organisationId) : await store.tenancyNames(covered)
      const tenancyIds = tenancies.map((t) => t.id)
      const scope =
        covered !== 'all'
          ? tenancies.map((t) => t.name).join(', ')
          : `Whole organisation (${tenancies.length} ${tenancies.length === 1 ? 'tenancy' : 'tenancies'})`
      // An earlier attempt killed on this machine left its folder: it goes before this attempt makes its own.
      await removeRenderFolders([claimed.id])
      const dir = await mkdtemp(join(tmpdir(), `${RENDER_FOLDER}${claimed.id}-`))
      try {
        const rendered = await renderRun({
          data: kind.produce(parsed.value, { tenancyIds, period, source }),
          heading: {
            title: report.name,
            subtitle: kind.subtitle(parsed.value),
            description: report.description,
            period,
            scope,
            generatedAt: clock.now(),
          },
          series: await source.dailyTotals(tenancyIds, period),
          dir,
          onRows: (n) => ctx.progress(`${n} rows rendered`),
          renderers: deps.renderers,
        })
        ctx.signal.throwIfAborted()
        for (const format of Object.keys(FORMATS) as Format[]) {
          try {
            await blobs.putFile(fileKey(claimed.id, format), rendered.files[format], FORMATS[format].contentType)
          } catch (err) {
            throw new StoreError(format, err)
          }
        }
        await ctx.succeed(async () => ({
          periodStart: period.from,
          periodEnd: period.to,
          rowCount: rendered.rowCount,
          preview: JSON.stringify(rendered.preview),
          files: JSON.stringify(Object.keys(FORMATS)),
        }))
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    failure(err) {
      if (err instanceof RenderError) return { code: 'render_failed', message: err.message, retry: true }
      if (err instanceof StoreError) return { code: 'store_failed', message: err.message, retry: true }
      if (err instanceof DefinitionError) return { code: 'invalid_report', message: err.message, retry: false }
      return { code: 'run_failed', message: 'The run failed unexpectedly; the error was logged.', retry: true }
    },
    // The files an attempt stored before it failed (the CSV when the XLSX was refused) go: a Failed run has none,
    // and the next attempt stores all three again.
    async afterFailure(run) {
      await blobs.deletePrefix(`report-runs/${run.id}/`)
    },
    // Runs whose worker was killed: their folders on this machine, once they are requeued or failed for good.
    afterRecovery: removeRenderFolders,
    // At start, the folders of runs no longer running (a worker of this machine killed while nobody recovered
    // its run yet keeps its folder until then). Folders of runs this database does not know are left alone: they
    // may be another installation's on the same machine.
    async atStart() {
      const folders = await renderFolders()
      const statuses = await store.runStatuses([...folders.keys()])
      await removeRenderFolders([...statuses].filter(([, status]) => status !== 'Running').map(([id]) => id))
    },
  }) as unknown as RunKind
}
