import { hostname } from 'node:os'
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import { type Config, ConfigError, httpBase } from './config.js'
import type { Fetch } from './connectors/azure/http.js'
import { createAzureConnector } from './connectors/azure/index.js'
import { createSimulatedConnector } from './connectors/simulated/index.js'
import type { Connector } from './connectors/types.js'
import { alertRunKind } from './features/alerts/run.js'
import { analysisRunKind } from './features/analysis/run.js'
import { notificationRunKind } from './features/notifications/run.js'
import { reportRunKind, reportSource } from './features/reports/run.js'
import { snapshotRunKind } from './features/snapshots/collect.js'
import { createExportPuller } from './features/snapshots/pull.js'
import type { Clock, Ids } from './platform/clock.js'
import type { Db } from './platform/db/index.js'
import { serveMetrics } from './platform/http/metrics.js'
import { mailRunKind, mailTransportOf } from './platform/mail.js'
import type { RunEvents, RunEventType } from './platform/runs/events.js'
import type { RunStore } from './platform/runs/store.js'
import { createWorker, type RunKind } from './platform/runs/worker.js'
import type { Services } from './services.js'

const SCHEDULE_EVERY_MS = 60_000

export interface PullOptions {
  azureFetch?: Fetch
  tlsCa?: string
}

export function defaultConnectors(config: Config): Record<string, Connector> {
  return {
    simulated: createSimulatedConnector({
      latencyMs: config.simulatedLatencyMs,
      plantedChanges: config.simulatedPlantedChanges ? 'demo' : 'recent',
    }),
    azure: createAzureConnector({
      authorityHost: config.azureAuthorityHost,
      armEndpoint: config.azureArmEndpoint,
      certificateDir: config.azureCertificateDir,
    }),
  }
}

/**
 * What the worker uses of the services: each run kind's own stores and services (every kind's factory names what
 * it takes), the run events, and what the daily schedule calls.
 */
export type WorkerServices = Pick<
  Services,
  | 'runEvents'
  | 'secrets'
  | 'tenantStore'
  | 'hostCredentials'
  | 'snapshotStore'
  | 'costIngest'
  | 'importInRun'
  | 'snapshots'
  | 'analysisStore'
  | 'analysers'
  | 'reportStore'
  | 'blobs'
  | 'reports'
  | 'sessions'
  | 'alertStore'
  | 'alertSources'
  | 'alerts'
  | 'queueDeliveries'
  | 'deliveryStore'
  | 'channelDirectory'
  | 'outbound'
  | 'outbox'
>

/**
 * The worker of every kind of run (snapshot, analysis, mail, report and notification runs), with their schedules; one per process, any number
 * per database. A new kind is one more entry of `kinds` (see docs/architecture.md); `moreKinds` are served too.
 */
export function createCollectionWorker(deps: {
  db: Db
  config: Config
  services: WorkerServices
  clock: Clock
  ids: Ids
  connectors?: Record<string, Connector>
  moreKinds?: RunKind[]
  /** For tests: the fetch of a Blob location's token requests, and the certificates its storage's TLS is checked against. */
  pullOptions?: PullOptions
  workerId?: string
  log?(level: 'info' | 'warn' | 'error', message: string, err?: unknown): void
}) {
  const { db, config, services, clock } = deps
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${deps.ids.uuid().slice(-8)}`
  let lastScheduled = 0
  const kinds: RunKind[] = [
    snapshotRunKind({
      runs: services.snapshotStore,
      tenants: services.tenantStore,
      costs: services.costIngest,
      connectors: deps.connectors ?? defaultConnectors(config),
      secrets: services.secrets,
      hostCredentials: services.hostCredentials,
      settlingDays: config.azureSettlingDays,
      pull: createExportPuller({
        importer: services,
        costs: services.costIngest,
        secrets: services.secrets,
        hostCredentials: services.hostCredentials,
        outboundAllow: config.outboundAllow,
        bigQueryEndpoint: config.bigQueryEndpoint,
        azure: { authorityHost: config.azureAuthorityHost, fetch: deps.pullOptions?.azureFetch },
        tlsCa: deps.pullOptions?.tlsCa,
      }),
      clock,
      ids: deps.ids,
    }),
    analysisRunKind({ runs: services.analysisStore, analysers: services.analysers, clock }),
    mailRunKind({
      db,
      secrets: services.secrets,
      transport: mailTransportOf(config, (message) => deps.log?.('info', message)),
    }),
    reportRunKind({
      store: services.reportStore,
      blobs: services.blobs,
      source: reportSource(db.kysely, db.dialect),
      clock,
    }),
    alertRunKind({
      store: services.alertStore,
      sources: services.alertSources,
      // Read at each use: the deliveries are the notifications feature's.
      queueDeliveries: (tx, requests) => services.queueDeliveries(tx, requests),
      analysisStartedAt: async (runId) => (await services.analysisStore.byId(runId))?.startedAt ?? null,
      publicUrl: config.publicUrl,
      clock,
    }),
    notificationRunKind({
      deliveries: services.deliveryStore,
      directory: services.channelDirectory,
      outbound: services.outbound,
      outbox: services.outbox,
      clock,
      slots: config.notifyConcurrency,
    }),
    ...(deps.moreKinds ?? []),
  ]
  return createWorker({
    db,
    kinds,
    events: services.runEvents,
    clock,
    workerId,
    pollMs: config.workerPollMs,
    leaseMs: config.runLeaseMs,
    maxAttempts: config.runMaxAttempts,
    tick: async (now) => {
      if (now.getTime() - lastScheduled < SCHEDULE_EVERY_MS) return
      lastScheduled = now.getTime()
      await services.snapshots.scheduleDaily(now, config.snapshotHour, services.tenantStore.scheduledIds)
      // Sessions past their lifetime are refused already; this only keeps the table small.
      await services.sessions.deleteExpired()
      await services.reports.scheduleDue(now)
      await services.alerts.scheduleDigests(now)
    },
    log: deps.log,
  })
}

/** The logger's part that run events use (pino's, Fastify's). */
export interface RunLog {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

const RUN_STATUSES: Record<RunEventType, string> = {
  'run:queued': 'queued',
  'run:started': 'started',
  'run:succeeded': 'succeeded',
  'run:failed': 'failed',
  'run:requeued': 'requeued',
}

/**
 * Turns the run events of this process into log lines (a failed run with its error and id) and Prometheus
 * metrics on `registry`: run events by kind and status, attempt durations, lease recoveries, and the queue depth
 * of each store's kind, read when scraped.
 */
export function observeRuns(events: RunEvents, deps: { registry: Registry; log: RunLog; stores: RunStore[] }) {
  const { registry, log } = deps
  const counted = new Counter({
    name: 'costwatch_runs_total',
    help: 'Run events by kind and status (queued, started, succeeded, failed, requeued).',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'costwatch_run_duration_seconds',
    help: 'Duration of run attempts by kind and outcome (succeeded, failed, requeued).',
    labelNames: ['kind', 'status'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  })
  const recoveries = new Counter({
    name: 'costwatch_run_lease_recoveries_total',
    help: 'Runs taken back from a worker that stopped answering (its lease expired), by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  new Gauge({
    name: 'costwatch_run_queue_depth',
    help: 'Queued runs by kind, due or waiting for their next attempt.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      for (const store of deps.stores) {
        try {
          this.set({ kind: store.kind.name }, await store.depth())
        } catch (err) {
          log.warn({ err }, `could not read the ${store.kind.name} run queue for the metrics`)
        }
      }
    },
  })
  for (const store of deps.stores)
    for (const status of Object.values(RUN_STATUSES)) counted.inc({ kind: store.kind.name, status }, 0)

  for (const type of Object.keys(RUN_STATUSES) as RunEventType[]) {
    events.on(type, (event) => {
      const status = RUN_STATUSES[type]
      counted.inc({ kind: event.kind, status })
      if ('durationMs' in event && event.durationMs !== null)
        duration.observe({ kind: event.kind, status }, event.durationMs / 1000)
      if ('leaseExpired' in event && event.leaseExpired) recoveries.inc({ kind: event.kind })
    })
  }
  events.on('run:succeeded', ({ kind, runId, tenantId, attempts, durationMs }) =>
    log.info({ kind, runId, tenantId, attempts, durationMs }, `${kind} run ${runId} succeeded`),
  )
  events.on('run:requeued', ({ kind, runId, tenantId, attempts, error, cause, notBefore }) =>
    log.warn(
      { kind, runId, tenantId, attempts, code: error.code, notBefore, err: cause },
      `${kind} run ${runId} attempt ${attempts} failed (${error.message}); it goes back to the queue`,
    ),
  )
  events.on('run:failed', ({ kind, runId, tenantId, attempts, error, cause }) =>
    log.error(
      { kind, runId, tenantId, attempts, code: error.code, err: cause },
      `${kind} run ${runId} failed: ${error.message}`,
    ),
  )
}

/** `/metrics` and `/healthz` of `costwatch worker` on HOST:WORKER_PORT; `url` is their base, with the port chosen for 0. */
export async function serveWorkerMetrics(
  registry: Registry,
  config: Pick<Config, 'host' | 'workerPort' | 'metricsToken'>,
) {
  const server = await serveMetrics(registry, config.host, config.workerPort, config.metricsToken).catch((err) => {
    if ((err as { code?: string }).code !== 'EADDRINUSE') throw err
    throw new ConfigError(
      `Setting WORKER_PORT: ${config.host}:${config.workerPort} is in use (another worker?); choose another port, or 0 for any free one`,
    )
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.workerPort
  return {
    url: httpBase(config.host, port),
    close: () => server.close(),
  }
}
