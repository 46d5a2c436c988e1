import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import type { Config } from './config.js'
import type { Connector } from './connectors/types.js'
import type { Feature } from './features/feature.js'
import { type Clock, type Ids, systemClock, uuidV7Ids } from './platform/clock.js'
import type { Db } from './platform/db/index.js'
import { processRegistry } from './platform/http/metrics.js'
import type { RunKind, Worker } from './platform/runs/worker.js'
import { createServices, type Services } from './services.js'
import { createCollectionWorker, observeRuns, type PullOptions } from './worker.js'

export interface RuntimeDeps {
  db: Db
  config: Config
  clock?: Clock
  ids?: Ids
  /** Where the app's log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream
  /** What the app serves: every feature unless a test says otherwise. */
  features?: readonly Feature<Services>[]
  /** Where the built web interface is (`dist/web` by default). */
  webDir?: string
  /** Which routes the app's OpenAPI document holds (see AppDeps). */
  openApiDocument?: 'public' | 'web'
}

export interface Runtime {
  services: Services
  app: FastifyInstance
  /** A worker of the same services; the last one made is woken when a request queues a run. */
  worker(options?: {
    connectors?: Record<string, Connector>
    workerId?: string
    /** Run kinds served beside the snapshot runs. */
    moreKinds?: RunKind[]
    /** For tests: how pulls reach a fake Entra and an emulator serving TLS with certificates of their own. */
    pullOptions?: PullOptions
    log?(level: 'info' | 'warn' | 'error', message: string, err?: unknown): void
  }): Worker
}

/**
 * The one wiring of `costwatch serve`, the benchmarks and the tests: every feature once, the HTTP app on those
 * services, and workers on them too.
 */
export async function createRuntime(deps: RuntimeDeps): Promise<Runtime> {
  const { db, config } = deps
  const clock = deps.clock ?? systemClock
  const ids = deps.ids ?? uuidV7Ids
  let app: FastifyInstance | undefined
  let worker: Worker | null = null
  const services = createServices({
    db,
    config,
    clock,
    ids,
    warn: (err, message) => app?.log.warn({ err }, message),
    onRunQueued: () => worker?.nudge(),
  })
  // One registry per process role: the app's request metrics and the runs' counters, served on `/metrics`.
  const metrics = processRegistry()
  app = await buildApp({
    db,
    config,
    ids,
    logStream: deps.logStream,
    services,
    features: deps.features,
    metrics,
    webDir: deps.webDir,
    openApiDocument: deps.openApiDocument,
  })
  observeRuns(services.runEvents, { registry: metrics, log: app.log, stores: services.runStores })
  return {
    services,
    app,
    worker: (options = {}) => {
      // The app's log by default: failed runs, and mail written to the log when no SMTP server is configured.
      const log = (level: 'info' | 'warn' | 'error', message: string, err?: unknown) =>
        app?.log[level](err === undefined ? {} : { err }, message)
      worker = createCollectionWorker({ db, config, services, clock, ids, log, ...options })
      return worker
    },
  }
}
