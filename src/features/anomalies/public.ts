// The anomalies feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export { AnomalySeverities, AnomalyStatuses } from './constants.js'
export { activeAnomalyCounts, anomaliesRaisedIn } from './reads.js'
export type { AnomalyRecord, AnomalyScope } from './schemas.js'
