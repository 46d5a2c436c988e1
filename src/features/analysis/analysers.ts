import type { Analyser } from '../../analysis/analyser.js'
import { createAnomalyAnalyser } from '../anomalies/public.js'
import { createInsightsAnalyser } from '../insights/public.js'

/**
 * The analysers an analysis run calls in turn, in this order: anomaly detection, then the insight rules. A new
 * analyser is one more entry here, given what it needs by services.ts. The `Analyser` interface sits below every
 * feature, in src/analysis/analyser.ts, so that the analysers' features need not import this one: the import runs
 * one way, from analysis to the features it calls.
 */
export function createAnalysers(deps: {
  anomalies: Parameters<typeof createAnomalyAnalyser>[0]
  insights: Parameters<typeof createInsightsAnalyser>[0]
}): Analyser[] {
  return [createAnomalyAnalyser(deps.anomalies), createInsightsAnalyser(deps.insights)]
}
