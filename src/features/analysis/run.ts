import type { Analyser } from '../../analysis/analyser.js'
import type { Clock } from '../../platform/clock.js'
import { LeaseLostError } from '../../platform/runs/store.js'
import { defineRunKind } from '../../platform/runs/worker.js'
import { ANALYSIS_RUNS, type AnalysisRunColumns, type AnalysisStore } from './store.js'

/**
 * An analysis run: every analyser in turn over the run's range of days. Analysers write their own results
 * idempotently (see Analyser), so an attempt interrupted half way is simply done again.
 */
export function analysisRunKind(deps: { runs: AnalysisStore; analysers: readonly Analyser[]; clock: Clock }) {
  return defineRunKind<AnalysisRunColumns>({
    ...ANALYSIS_RUNS,

    async handle(claimed, { signal, progress, succeed }) {
      const run = await deps.runs.byId(claimed.id)
      if (!run) throw new Error(`analysis run ${claimed.id} disappeared`)
      const now = deps.clock.now()
      for (const analyser of deps.analysers) {
        if (signal.aborted) throw new LeaseLostError()
        progress(analyser.name)
        await analyser.analyse({
          tenantId: run.tenantId,
          from: run.rangeFrom,
          to: run.rangeTo,
          now,
          signal,
          progress: (message) => progress(`${analyser.name}: ${message}`),
        })
      }
      await succeed(async () => ({}))
    },
  })
}
