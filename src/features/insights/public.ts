// The insights feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export { activeInsightSavings, insightsFoundBetween, openInsightsOf } from './store.js'
