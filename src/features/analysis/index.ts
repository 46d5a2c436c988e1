export type { Analyser, AnalysisContext } from '../../analysis/analyser.js'
export { analysisRunKind } from './run.js'
export { ANALYSIS_RUNS, type AnalysisStore, createAnalysisStore } from './store.js'
