#!/usr/bin/env node
import { Command } from 'commander'
import { type Config, ConfigError, type ConnectorName, httpBase, loadConfig } from './config.js'
import { COMMANDS } from './features/commands.js'
import type { Db } from './platform/db/index.js'
import { ApiError } from './platform/http/errors.js'
import type { Services } from './services.js'

// Only what every command needs is imported here: the database, the services, the HTTP app and the worker are
// imported by the commands that use them (see COMMANDS in features/commands.ts for what that saves).

/** What the commands on the database import when they run: the database, the services, the clock and pino. */
async function backend() {
  const [db, services, clock, { pino }] = await Promise.all([
    import('./platform/db/index.js'),
    import('./services.js'),
    import('./platform/clock.js'),
    import('pino'),
  ])
  return { ...db, ...services, ...clock, pino }
}

/** Opens the configured database, migrated, with every feature wired; closes it when `work` is done. */
async function withServices<T>(
  work: (s: Services, ctx: { db: Db; config: Config }) => Promise<T>,
  options: { defaultConnector?: ConnectorName; writesMuch?: boolean } = {},
): Promise<T> {
  const { writesMuch, ...defaults } = options
  const config = loadConfig(process.env, defaults)
  const { openDatabase, migrateToLatest, createServices, systemClock, uuidV7Ids, pino } = await backend()
  const db = openDatabase(config.databaseUrl, {
    synchronous: config.sqliteSynchronous,
    checkpointInBackground: writesMuch,
  })
  try {
    await migrateToLatest(db)
    const log = pino({ level: config.logLevel }, process.stderr)
    const warn = (err: unknown, message: string) => log.warn({ err }, message)
    return await work(createServices({ db, config, clock: systemClock, ids: uuidV7Ids, warn }), { db, config })
  } finally {
    await db.close()
  }
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`)
}

function fail(err: unknown): never {
  if (err instanceof ApiError) {
    const fields = Object.entries(err.more.errors ?? {}).map(([f, m]) => `  ${f}: ${m.join('; ')}`)
    process.stderr.write(`error: ${err.more.detail ?? err.title}\n${fields.join('\n')}${fields.length ? '\n' : ''}`)
  } else if (err instanceof ConfigError) {
    process.stderr.write(`error: ${err.message}\n`)
  } else {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`)
  }
  process.exit(1)
}

/** Runs the API (and the worker) until SIGINT/SIGTERM, then finishes the current step and closes cleanly. */
async function serve(opts: { worker: boolean; demo: boolean }) {
  // The demo's simulated estate carries recent cost changes, so that its anomaly pages show what detection finds.
  const demoDefaults = { defaultConnector: 'simulated' as const, simulatedPlantedChanges: true }
  const config = loadConfig(process.env, opts.demo ? demoDefaults : {})
  const { openDatabase, migrateToLatest } = await import('./platform/db/index.js')
  const db = openDatabase(config.databaseUrl, {
    synchronous: config.sqliteSynchronous,
    checkpointInBackground: opts.worker,
  })
  await migrateToLatest(db)
  const { createRuntime } = await import('./runtime.js')
  const runtime = await createRuntime({ db, config })
  const { app } = runtime
  if (!config.smtpUrl) app.log.warn((await import('./platform/mail.js')).MAIL_OFF_WARNING)
  const worker = opts.worker ? runtime.worker({ log: logTo(app.log) }) : null
  const demo = opts.demo ? await (await import('./demo.js')).seedDemo(runtime.services) : null
  await app.listen({ host: config.host, port: config.port })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const base = httpBase(config.host, port)
  process.stdout.write(
    `Costwatch is listening on ${base} (web interface ${base}/, API ${base}/api/public/v1, docs ${base}/docs)\n`,
  )
  if (!opts.worker) process.stdout.write('The worker is off (--no-worker): run `costwatch worker` beside it.\n')
  if (demo) process.stdout.write(demo.banner(base))
  // Started once the server answers: the demo's first collection (months of costs) never delays its banner.
  worker?.start()
  onStop(async () => {
    await worker?.stop()
    await app.close()
    await db.close()
  })
}

function logTo(log: {
  info(o: object, m: string): void
  warn(o: object, m: string): void
  error(o: object, m: string): void
}) {
  return (level: 'info' | 'warn' | 'error', message: string, err?: unknown) => log[level]({ err }, message)
}

function onStop(stop: () => Promise<void>) {
  const handler = () => {
    stop().then(
      () => process.exit(0),
      (err) => fail(err),
    )
  }
  process.once('SIGINT', handler)
  process.once('SIGTERM', handler)
}

export function program(): Command {
  const cli = new Command('costwatch')
    .description('Cloud cost monitoring: API, web interface, worker and administration.')
    .showHelpAfterError()

  cli
    .command('serve')
    .description('Run the API and web interface on HOST:PORT, with the worker unless --no-worker; migrates first.')
    .option('--no-worker', 'do not run the worker in this process')
    .option('--demo', 'on an empty database, create a demo organisation and print its owner API key')
    .action((opts: { worker: boolean; demo?: boolean }) =>
      serve({ worker: opts.worker, demo: !!opts.demo }).catch(fail),
    )

  cli
    .command('worker')
    .description('Run the worker alone: it claims snapshot and report runs from the database.')
    .action(async () => {
      const config = loadConfig()
      const { openDatabase, migrateToLatest, createServices, systemClock, uuidV7Ids, pino } = await backend()
      const { redactingDestination } = await import('./platform/log.js')
      const { processRegistry } = await import('./platform/http/metrics.js')
      const db = openDatabase(config.databaseUrl, {
        synchronous: config.sqliteSynchronous,
        checkpointInBackground: true,
      })
      await migrateToLatest(db)
      const log = pino({ level: config.logLevel }, redactingDestination())
      if (!config.smtpUrl) log.warn((await import('./platform/mail.js')).MAIL_OFF_WARNING)
      const services = createServices({
        db,
        config,
        clock: systemClock,
        ids: uuidV7Ids,
        warn: (err, message) => log.warn({ err }, message),
      })
      const { createCollectionWorker, observeRuns, serveWorkerMetrics } = await import('./worker.js')
      const metrics = processRegistry()
      observeRuns(services.runEvents, { registry: metrics, log, stores: services.runStores })
      const endpoint = await serveWorkerMetrics(metrics, config)
      const worker = createCollectionWorker({
        db,
        config,
        services,
        clock: systemClock,
        ids: uuidV7Ids,
        log: logTo(log),
      })
      worker.start()
      process.stdout.write(
        `Costwatch worker started (metrics ${endpoint.url}/metrics, health ${endpoint.url}/healthz); waiting for runs.\n`,
      )
      onStop(async () => {
        await worker.stop()
        endpoint.close()
        await db.close()
      })
    })

  cli
    .command('migrate')
    .description('Apply pending database migrations and exit.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig()
      const { openDatabase, migrateToLatest } = await import('./platform/db/index.js')
      const db = openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous })
      try {
        const applied = await migrateToLatest(db)
        print(
          !!opts.json,
          { applied },
          applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.',
        )
      } finally {
        await db.close()
      }
    })

  for (const register of COMMANDS) register(cli, { withServices, print, fail })

  return cli
}

program().parseAsync(process.argv).catch(fail)
