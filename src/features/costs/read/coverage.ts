import type { Kysely } from 'kysely'
import type { Database } from '../../../platform/db/index.js'
import { addDays } from '../../../platform/time.js'

/**
 * A source counts for a tenant's settled days while its coverage reaches within this many days of the tenant's
 * newest covered day: a FOCUS import not repeated for weeks no longer holds back the days a collection settles.
 */
export const ACTIVE_SOURCE_DAYS = 28

/** What one source of a tenant's costs covered and settled (see cost_coverage). */
export interface SourceCoverage {
  /** The collecting connector (`azure`, `simulated`), or `focus` for FOCUS imports. */
  source: string
  coveredFrom: string
  coveredTo: string
  settledThrough: string
  /** Its coverage reaches within ACTIVE_SOURCE_DAYS of the tenant's newest covered day. */
  active: boolean
}

export interface CostCoverage {
  /**
   * The last day every active source has settled: later days are preliminary (a source still restates them, or
   * has not covered them yet, which is no day of zero cost). Null when no source recorded its coverage.
   */
  settledThrough: string | null
  sources: SourceCoverage[]
}

/** The settled day of a tenant's sources: the earliest of the active ones'. */
export function settledThroughOf(sources: readonly Omit<SourceCoverage, 'active'>[]): CostCoverage {
  if (sources.length === 0) return { settledThrough: null, sources: [] }
  const newest = sources.reduce((m, s) => (s.coveredTo > m ? s.coveredTo : m), sources[0]!.coveredTo)
  const activeFrom = addDays(newest, -ACTIVE_SOURCE_DAYS)
  const all = sources.map((s) => ({ ...s, active: s.coveredTo >= activeFrom }))
  // A source settles nothing beyond what it covered.
  const settled = all
    .filter((s) => s.active)
    .map((s) => (s.settledThrough < s.coveredTo ? s.settledThrough : s.coveredTo))
  return { settledThrough: settled.reduce((m, d) => (d < m ? d : m)), sources: all }
}

export function createCoverageReads(db: Kysely<Database>) {
  const coverage = async (tenantId: string): Promise<CostCoverage> =>
    settledThroughOf(
      await db
        .selectFrom('costCoverage')
        .select(['source', 'coveredFrom', 'coveredTo', 'settledThrough'])
        .where('tenantId', '=', tenantId)
        .orderBy('source')
        .execute(),
    )
  return {
    /** What each source of the tenant covered and settled, and the last day all active ones settled. */
    costCoverage: coverage,
    /** The last day every source active on the tenant has settled (see CostCoverage); null when nothing is known. */
    settledThrough: async (tenantId: string): Promise<string | null> => (await coverage(tenantId)).settledThrough,
  }
}
