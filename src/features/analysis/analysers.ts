import type { Analyser } from '../../analysis/analyser.js'
import { createAnomalyAnalyser } from '../anomalies/detection.js'
import { createInsightsAnalyser } from '../insights/analyser.js'

/**
 * The analysers an analysis run calls in turn, in this order: anomaly detection, then the insight rules. A new
 * analyser is one more entry here, given what it needs by services.ts. The `Analyser` interface sits below every
 * feature, in src/analysis/analyser.ts, so that the analysers' features need not import this one: the import runs
 * one way, from analysis to the features it calls. Like services.ts, this list is wiring: it takes each analyser
 * from its feature's module directly (the import rules allow it), so that no public entry loads the detection.
 */
export function createAnalysers(deps: {
  anomalies: Parameters<typeof createAnomalyAnalyser>[0]
  insights: Parameters<typeof createInsightsAnalyser>[0]
}): Analyser[] {
  return [createAnomalyAnalyser(deps.anomalies), createInsightsAnalyser(deps.insights)]
}
