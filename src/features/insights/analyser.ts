import type { Analyser } from '../../analysis/analyser.js'
import { findInsights } from '../../analysis/insights/index.js'
import { LeaseLostError } from '../../platform/runs/store.js'
import { toDay } from '../../platform/time.js'
import type { FoundInsight, InsightStore } from './store.js'

/**
 * The insights step of an analysis run: every rule over every resource of the tenant, from its inventory, its own
 * costs of the last 30 complete days and its CPU, then one write of the result (see `recordAnalysis`): the same
 * analysis run again, or an attempt cut short and run again, leaves exactly one insight per resource and category.
 */
export function createInsightsAnalyser(deps: { store: InsightStore }): Analyser {
  return {
    name: 'insights',
    async analyse({ tenantId, now, signal, progress }) {
      const today = toDay(now)
      progress('reading the estate')
      const estate = await deps.store.facts(tenantId, today)
      if (signal.aborted) throw new LeaseLostError()
      progress(`checking ${estate.length} resources`)
      const found: FoundInsight[] = estate.flatMap((resource) =>
        findInsights(resource, { today }).map((finding) => ({ resource, finding })),
      )
      if (signal.aborted) throw new LeaseLostError()
      const outcome = await deps.store.recordAnalysis(tenantId, found, now.toISOString())
      progress(`${outcome.found} found (${outcome.created} new), ${outcome.resolved} resolved`)
    },
  }
}
