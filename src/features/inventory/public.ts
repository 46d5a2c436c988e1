// The inventory feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export {
  cpuDays,
  currentResources,
  type InventoryStore,
  inventoryForCosts,
  parseTags,
  type ResourceFacts,
  resourceFactsBetween,
  resourceNamesById,
  saveCpuSamples,
  syncInventory,
} from './store.js'
