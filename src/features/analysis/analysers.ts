import { createAnomalyAnalyser } from '../anomalies/public.js'
import { createInsightsAnalyser } from '../insights/public.js'
import type { Analyser } from './analyser.js'

/**
 * The analysers an analysis run calls in turn, in this order: anomaly detection, then the insight rules. A new
 * analyser is one more entry here, given what it needs by services.ts. Not exported from index.ts: the analysers'
 * features import the `Analyser` type from this feature, so only services.ts imports this list, and no cycle forms.
 */
export function createAnalysers(deps: {
  anomalies: Parameters<typeof createAnomalyAnalyser>[0]
  insights: Parameters<typeof createInsightsAnalyser>[0]
}): Analyser[] {
  return [createAnomalyAnalyser(deps.anomalies), createInsightsAnalyser(deps.insights)]
}
