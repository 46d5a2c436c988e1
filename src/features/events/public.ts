// The events feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export type { EventRecord } from './schemas.js'
export type { EventService } from './service.js'
export type { EventStore } from './store.js'
export { type ChartTarget, isUniversal, isVisibleOn } from './visibility.js'
