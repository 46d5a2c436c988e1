import type { Config } from './config.js'
import { createApiKeyService } from './features/apikeys/service.js'
import { createApiKeyStore } from './features/apikeys/store.js'
import { createCostService } from './features/costs/service.js'
import { createCostStore, createSeriesQueries } from './features/costs/store.js'
import { createEventService } from './features/events/service.js'
import { createEventStore } from './features/events/store.js'
import { createInventoryService } from './features/inventory/service.js'
import { createInventoryStore } from './features/inventory/store.js'
import { createOrganisationService } from './features/organisation/service.js'
import { createOrganisationStore } from './features/organisation/store.js'
import type { AfterSnapshot } from './features/snapshots/collect.js'
import { createFocusImporter } from './features/snapshots/import.js'
import { createSnapshotService } from './features/snapshots/service.js'
import { createSnapshotStore, SNAPSHOT_RUNS, type SnapshotRunColumns } from './features/snapshots/store.js'
import type { TenantRecord } from './features/tenants/schemas.js'
import { createTenantService } from './features/tenants/service.js'
import { createTenantStore } from './features/tenants/store.js'
import { createUserStore } from './features/users/store.js'
import { bumpVersionOfTenancies } from './platform/cache.js'
import type { Clock, Ids } from './platform/clock.js'
import { createSecretBox } from './platform/crypto.js'
import type { Db } from './platform/db/index.js'
import { createRunEvents, type RunEvents } from './platform/runs/events.js'
import { createRunStore, type RunStore } from './platform/runs/store.js'

/** Every feature wired once, for the HTTP app and the command line alike. */
export function createServices(deps: {
  db: Db
  config: Config
  clock: Clock
  ids: Ids
  warn?: (err: unknown, message: string) => void
  /** Wakes the worker of this process when a run of any kind is queued. */
  onRunQueued?: () => void
  /** Called after a snapshot run or a FOCUS import succeeded, outside its transaction; a failure is only logged. */
  afterSnapshot?: AfterSnapshot[]
}) {
  const { db, config, clock, ids } = deps
  const secrets = createSecretBox(config.secretKey)
  const organisationStore = createOrganisationStore(db.kysely)
  const tenantStore = createTenantStore(db.kysely)
  const users = createUserStore(db.kysely)
  const runEvents = createRunEvents({
    onListenerError: (err, event) => deps.warn?.(err, `a listener of ${event.type} failed for run ${event.runId}`),
  })
  wireSnapshotRunEvents(runEvents, deps.afterSnapshot ?? [], deps.warn)
  runEvents.on('run:queued', () => deps.onRunQueued?.())
  const snapshotStore = createSnapshotStore(
    db.kysely,
    createRunStore<SnapshotRunColumns>(db, SNAPSHOT_RUNS, { clock, events: runEvents }),
  )
  const costStore = createCostStore(db.kysely, db.dialect)
  const inventoryStore = createInventoryStore(db.kysely)
  /** A tenant's latest run and cost totals (as of `today`, a UTC day), read for a whole page in two queries. */
  const decorateTenants = async (records: TenantRecord[], today: string): Promise<TenantRecord[]> => {
    const tenantIds = records.map((r) => r.id)
    const [latest, totals] = await Promise.all([
      snapshotStore.latestOf(tenantIds),
      costStore.tenantTotals(tenantIds, today),
    ])
    return records.map((r) => ({ ...r, lastSnapshot: latest.get(r.id) ?? null, costs: totals.get(r.id) ?? r.costs }))
  }
  const apiKeys = createApiKeyService({
    store: createApiKeyStore(db.kysely),
    clock,
    ids,
    tenancyBelongsTo: async (tenancyId, organisationId) =>
      (await tenantStore.organisationOf(tenancyId)) === organisationId,
    onTouchError: (err) => deps.warn?.(err, 'could not record when an API key was last used'),
  })
  const events = createEventService({
    store: createEventStore(db.kysely, db.dialect),
    inventory: inventoryStore,
    clock,
    ids,
  })
  const inventory = createInventoryService({ store: inventoryStore, costs: costStore, clock })
  return {
    runEvents,
    /** The store of every run kind's table (queue depth metrics). */
    runStores: [snapshotStore.runs] as RunStore[],
    secrets,
    organisationStore,
    tenantStore,
    users,
    apiKeys,
    organisations: createOrganisationService({
      db: db.kysely,
      organisations: organisationStore,
      users,
      apiKeys,
      clock,
      ids,
    }),
    tenants: createTenantService({
      store: tenantStore,
      clock,
      ids,
      secrets,
      connector: config.connector,
      decorate: decorateTenants,
    }),
    snapshotStore,
    costStore,
    snapshots: createSnapshotService({ store: snapshotStore, clock, ids }),
    events,
    inventory,
    importFocus: createFocusImporter({
      tenants: tenantStore,
      runs: snapshotStore,
      costs: costStore,
      clock,
      ids,
    }),
    costs: createCostService({
      series: createSeriesQueries(db.kysely, db.dialect),
      inventoryStore,
      inventory,
      events,
      clock,
    }),
  }
}
export type Services = ReturnType<typeof createServices>

/**
 * What a snapshot run's changes mean beyond its row: every status change is the tenant's `lastSnapshot` in the
 * tenant list, and a success brings new costs, so each bumps the organisation's cache version in the run's own
 * transaction (bumpVersionOfTenancies): a kept page is never served after the change commits. After a success,
 * the afterSnapshot hooks.
 */
function wireSnapshotRunEvents(
  events: RunEvents,
  hooks: AfterSnapshot[],
  warn?: (err: unknown, message: string) => void,
) {
  events.beforeCommit(async (tx, changes) => {
    const tenantIds = changes.flatMap((e) => (e.kind === SNAPSHOT_RUNS.name && e.tenantId ? [e.tenantId] : []))
    await bumpVersionOfTenancies(tx, tenantIds)
  })
  events.on('run:succeeded', async ({ kind, tenantId, runId }) => {
    if (kind !== SNAPSHOT_RUNS.name || !tenantId) return
    for (const hook of hooks) {
      try {
        await hook(tenantId, runId)
      } catch (err) {
        warn?.(err, `an after-snapshot hook failed for run ${runId}; the run stays Succeeded`)
      }
    }
  })
}
