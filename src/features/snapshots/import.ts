import type { Kysely } from 'kysely'
import { type FocusIssue, type FocusParseResult, parseFocusFiles } from '../../connectors/focus/parse.js'
import { bumpVersionOfTenancies } from '../../platform/cache.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { Database } from '../../platform/db/index.js'
import { ApiError } from '../../platform/http/errors.js'
import type { CostStore } from '../costs/store.js'
import { roundMoney } from '../costs/store.js'
import { syncInventory } from '../inventory/sync.js'
import type { TenantStore } from '../tenants/store.js'
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

export class FocusImportRejected extends Error {
  constructor(readonly parsed: FocusParseResult) {
    super(`${parsed.errorCount} row${parsed.errorCount === 1 ? '' : 's'} could not be read; nothing was imported.`)
  }
}

/**
 * Loads FOCUS cost files into a tenant as one run: every file is read and checked first; with any bad row
 * nothing is written (unless `skipBadRows`), otherwise inventory and costs are written in one transaction and
 * recorded as a Succeeded snapshot run with trigger Import. Costs replace what was stored for the same
 * (resource, day, meter), so importing a file twice never double counts.
 */
export function createFocusImporter(deps: {
  db: Kysely<Database>
  tenants: TenantStore
  runs: SnapshotStore
  costs: CostStore
  clock: Clock
  ids: Ids
}) {
  return async function importFocus(
    tenantId: string,
    files: string[],
    options: { skipBadRows?: boolean } = {},
  ): Promise<FocusImportOutcome> {
    if (!(await deps.tenants.connectionRow(tenantId))) throw ApiError.notFound(`Tenant ${tenantId}`)
    if (files.length === 0) throw ApiError.badRequest('Name at least one FOCUS file to import.')
    const parsed = await parseFocusFiles(files)
    const fileLevel = parsed.errors.some((e) => e.line === 0)
    if (parsed.errorCount > 0 && (!options.skipBadRows || fileLevel || parsed.currency === null))
      throw new FocusImportRejected(parsed)
    if (parsed.costs.length === 0) throw ApiError.badRequest('The files hold no cost rows.')

    const dates = parsed.costs.map((c) => c.date).sort()
    const periodStart = dates[0]!
    const periodEnd = dates.at(-1)!
    const runId = deps.ids.uuid()
    const now = deps.clock.now().toISOString()
    await deps.db.transaction().execute(async (trx) => {
      const stagingKey = `${runId}:1`
      // Staged in the transaction too: an import is local work, and nothing of it shows until it commits.
      await deps.costs.stage(stagingKey, tenantId, parsed.costs, trx)
      const counts = await syncInventory(trx, tenantId, parsed, now, deps.ids, { partial: true })
      const costRows = await deps.costs.mergeStaged(trx, stagingKey)
      await deps.costs.clearStaged(runId, trx)
      await trx
        .insertInto('snapshotRuns')
        .values({
          id: runId,
          tenantId,
          status: 'Succeeded',
          trigger: 'Import',
          deepHistory: 0,
          requestedAt: now,
          requestedBy: 'command line',
          startedAt: now,
          completedAt: deps.clock.now().toISOString(),
          periodStart,
          periodEnd,
          statSubscriptions: counts.subscriptions,
          statResourceGroups: counts.resourceGroups,
          statResources: counts.resources,
          statCostRows: costRows,
        })
        .execute()
      // A new latest run and new costs for the tenant list, seen with them or not at all.
      await bumpVersionOfTenancies(trx, tenantId)
    })
    return {
      run: (await deps.runs.get(tenantId, runId))!,
      files,
      rowsRead: parsed.rowsRead,
      rowsRejected: parsed.rowsRejected,
      currency: parsed.currency,
      totalCost: roundMoney(parsed.costs.reduce((a, c) => a + c.cost, 0)),
      errors: parsed.errors,
      warnings: parsed.warnings,
    }
  }
}
