import type { Insertable, Kysely } from 'kysely'
import type { Clock, Ids } from '../../platform/clock.js'
import { isUniqueViolation } from '../../platform/db/errors.js'
import type { Database } from '../../platform/db/index.js'
import type { AnalysisRunsTable } from '../../platform/db/schema.js'
import type { RunColumns, RunStore, RunTable } from '../../platform/runs/store.js'

/** Analysis runs: the kind's name in run events and metrics, and its table. */
export const ANALYSIS_RUNS: RunTable = { name: 'analysis', table: 'analysis_runs' }

/** The analysis run kind's own columns, beside every run table's (RunColumns). */
export type AnalysisRunColumns = Omit<Insertable<AnalysisRunsTable>, keyof RunColumns>

/** The analysis runs' own reads and writes; the life of a run row (queue, claim, outcome) is `runs`'. */
export function createAnalysisStore(
  db: Kysely<Database>,
  runs: RunStore<AnalysisRunColumns>,
  deps: { clock: Clock; ids: Ids },
) {
  /** Widens the tenant's waiting run to cover `from`..`to`; false when none is waiting. */
  async function widenWaiting(tenantId: string, from: string, to: string): Promise<boolean> {
    const waiting = await db
      .selectFrom('analysisRuns')
      .select(['id', 'rangeFrom', 'rangeTo'])
      .where('tenantId', '=', tenantId)
      .where('status', '=', 'Queued')
      .executeTakeFirst()
    if (!waiting) return false
    const result = await db
      .updateTable('analysisRuns')
      .set({
        rangeFrom: from < waiting.rangeFrom ? from : waiting.rangeFrom,
        rangeTo: to > waiting.rangeTo ? to : waiting.rangeTo,
      })
      .where('id', '=', waiting.id)
      .where('status', '=', 'Queued')
      .executeTakeFirst()
    // Claimed in between: the waiting run became a running one, and a new one must be queued.
    return Number(result.numUpdatedRows) === 1
  }

  return {
    runs,

    /**
     * Asks for the days `from`..`to` of the tenant to be analysed. A tenant has at most one waiting run (a unique
     * index): when one waits, its range grows to cover these days instead of a second run being queued, so a burst
     * of imports is analysed once.
     */
    async request(tenantId: string, from: string, to: string, sourceRunId: string | null): Promise<void> {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await widenWaiting(tenantId, from, to)) return
        try {
          await runs.queue({
            id: deps.ids.uuid(),
            tenantId,
            requestedAt: deps.clock.now().toISOString(),
            sourceRunId,
            rangeFrom: from,
            rangeTo: to,
          })
          return
        } catch (err) {
          // Another process queued one at the same moment: widen that one instead.
          if (!isUniqueViolation(err)) throw err
        }
      }
      throw new Error(`could not queue an analysis run for tenant ${tenantId}`)
    },

    async byId(id: string) {
      return db.selectFrom('analysisRuns').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** The tenant's runs, newest first (tests and the command line). */
    async ofTenant(tenantId: string) {
      return db
        .selectFrom('analysisRuns')
        .selectAll()
        .where('tenantId', '=', tenantId)
        .orderBy('requestedAt', 'desc')
        .orderBy('id', 'desc')
        .execute()
    },
  }
}
export type AnalysisStore = ReturnType<typeof createAnalysisStore>
