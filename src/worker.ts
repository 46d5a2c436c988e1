import { hostname } from 'node:os'
import type { Config } from './config.js'
import { createAzureConnector } from './connectors/azure/index.js'
import { createSimulatedConnector } from './connectors/simulated/index.js'
import type { Connector } from './connectors/types.js'
import { createSnapshotHandler } from './features/snapshots/collect.js'
import type { Clock, Ids } from './platform/clock.js'
import type { Db } from './platform/db/index.js'
import { createRunQueue } from './platform/runs/queue.js'
import { createWorker } from './platform/runs/worker.js'
import type { Services } from './services.js'

const SCHEDULE_EVERY_MS = 60_000

export function defaultConnectors(config: Config): Record<string, Connector> {
  return {
    simulated: createSimulatedConnector({ latencyMs: config.simulatedLatencyMs }),
    azure: createAzureConnector({
      authorityHost: config.azureAuthorityHost,
      armEndpoint: config.azureArmEndpoint,
      certificateDir: config.azureCertificateDir,
    }),
  }
}

/** The worker of snapshot runs, with the daily schedule; one per process, any number per database. */
export function createCollectionWorker(deps: {
  db: Db
  config: Config
  services: Services
  clock: Clock
  ids: Ids
  connectors?: Record<string, Connector>
  workerId?: string
  log?(level: 'info' | 'warn' | 'error', message: string, err?: unknown): void
}) {
  const { db, config, services, clock } = deps
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${deps.ids.uuid().slice(-8)}`
  let lastScheduled = 0
  return createWorker({
    queue: createRunQueue(db.kysely, db.dialect, 'snapshotRuns'),
    handler: createSnapshotHandler({
      db: db.kysely,
      runs: services.snapshotStore,
      tenants: services.tenantStore,
      costs: services.costStore,
      connectors: deps.connectors ?? defaultConnectors(config),
      secrets: services.secrets,
      clock,
      ids: deps.ids,
      workerId,
    }),
    clock,
    workerId,
    pollMs: config.workerPollMs,
    leaseMs: config.runLeaseMs,
    maxAttempts: config.runMaxAttempts,
    tick: async (now) => {
      if (now.getTime() - lastScheduled < SCHEDULE_EVERY_MS) return
      lastScheduled = now.getTime()
      await services.snapshots.scheduleDaily(now, config.snapshotHour, services.tenantStore.allIds)
    },
    log: deps.log,
  })
}
