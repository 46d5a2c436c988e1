#!/usr/bin/env node
import { Command, Option } from 'commander'
import { pino } from 'pino'
import { buildApp } from './app.js'
import { type Config, ConfigError, type ConnectorName, loadConfig } from './config.js'
import { seedDemo } from './demo.js'
import { registerEventCommands } from './features/events/cli.js'
import { FocusImportRejected } from './features/snapshots/import.js'
import { TENANCY_ROLES, type TenancyRole } from './platform/auth/principal.js'
import { systemClock, uuidV7Ids } from './platform/clock.js'
import { type Db, migrateToLatest, openDatabase } from './platform/db/index.js'
import { ApiError } from './platform/http/errors.js'
import { redactingDestination } from './platform/log.js'
import type { Worker } from './platform/runs/worker.js'
import { createServices, type Services } from './services.js'
import { createCollectionWorker } from './worker.js'

/** Opens the configured database, migrated, with every feature wired; closes it when `work` is done. */
async function withServices<T>(
  work: (s: Services, ctx: { db: Db; config: Config }) => Promise<T>,
  options: { defaultConnector?: ConnectorName } = {},
): Promise<T> {
  const config = loadConfig(process.env, options)
  const db = openDatabase(config.databaseUrl)
  try {
    await migrateToLatest(db)
    return await work(createServices({ db, config, clock: systemClock, ids: uuidV7Ids }), { db, config })
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

function parseGrant(value: string, previous: { tenancyId: string; role: TenancyRole }[] = []) {
  const [tenancyId, role] = value.split(':')
  if (!tenancyId || !role || !(TENANCY_ROLES as readonly string[]).includes(role)) {
    throw new ApiError(400, 'validation', 'Bad --tenancy', {
      detail: `--tenancy takes TENANCY_ID:ROLE with ROLE one of ${TENANCY_ROLES.join(', ')}, got "${value}"`,
    })
  }
  return [...previous, { tenancyId: tenancyId.toLowerCase(), role: role as TenancyRole }]
}

/** Runs the API (and the worker) until SIGINT/SIGTERM, then finishes the current step and closes cleanly. */
async function serve(opts: { worker: boolean; demo: boolean }) {
  const config = loadConfig(process.env, opts.demo ? { defaultConnector: 'simulated' as const } : {})
  const db = openDatabase(config.databaseUrl)
  await migrateToLatest(db)
  let worker: Worker | null = null
  const services = createServices({
    db,
    config,
    clock: systemClock,
    ids: uuidV7Ids,
    onRunQueued: () => worker?.nudge(),
  })
  const app = await buildApp({ db, config, services })
  if (opts.worker) {
    worker = createCollectionWorker({ db, config, services, clock: systemClock, ids: uuidV7Ids, log: logTo(app.log) })
    worker.start()
  }
  const demo = opts.demo ? await seedDemo(services) : null
  await app.listen({ host: config.host, port: config.port })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`
  process.stdout.write(`Costwatch is listening on ${base} (API ${base}/api/public/v1, docs ${base}/docs)\n`)
  if (!opts.worker) process.stdout.write('The worker is off (--no-worker): run `costwatch worker` beside it.\n')
  if (demo) process.stdout.write(demo.banner(base))
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
      const db = openDatabase(config.databaseUrl)
      await migrateToLatest(db)
      const services = createServices({ db, config, clock: systemClock, ids: uuidV7Ids })
      const log = pino({ level: config.logLevel }, redactingDestination())
      const worker = createCollectionWorker({
        db,
        config,
        services,
        clock: systemClock,
        ids: uuidV7Ids,
        log: logTo(log),
      })
      worker.start()
      process.stdout.write('Costwatch worker started; waiting for runs.\n')
      onStop(async () => {
        await worker.stop()
        await db.close()
      })
    })

  cli
    .command('migrate')
    .description('Apply pending database migrations and exit.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig()
      const db = openDatabase(config.databaseUrl)
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

  const org = cli.command('org').description('Organisations.')
  org
    .command('create')
    .description("Create an organisation with its owner and the owner's first API key.")
    .requiredOption('--name <name>', 'organisation name')
    .requiredOption('--owner-email <email>', "the first owner's e-mail address")
    .option('--plan <plan>', 'free, team or enterprise', 'free')
    .option('--json', 'print one JSON document')
    .action((opts: { name: string; ownerEmail: string; plan: string; json?: boolean }) =>
      withServices(async (s) => {
        const created = await s.organisations.create({ name: opts.name, ownerEmail: opts.ownerEmail, plan: opts.plan })
        print(
          !!opts.json,
          created,
          [
            `Organisation ${created.organisation.name} (${created.organisation.id})`,
            `Owner ${created.owner.email} (${created.owner.id})`,
            `API key ${created.key.name} (${created.key.id}); shown once, keep it safe:`,
            created.apiKey,
          ].join('\n'),
        )
      }).catch(fail),
    )

  const keys = cli.command('keys').description('API keys.')
  keys
    .command('create')
    .description('Create an API key; without --tenancy it acts with owner rights.')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--name <name>', 'a name that says where the key is used')
    .option('--expires <instant>', 'RFC 3339 expiry instant')
    .addOption(
      new Option('--tenancy <id:role...>', 'limit the key to tenancies with a role (Admin, Editor, Viewer)').argParser(
        parseGrant,
      ),
    )
    .option('--json', 'print one JSON document')
    .action(
      (opts: {
        org: string
        name: string
        expires?: string
        tenancy?: { tenancyId: string; role: TenancyRole }[]
        json?: boolean
      }) =>
        withServices(async (s) => {
          if (!(await s.organisationStore.get(opts.org.toLowerCase())))
            throw ApiError.notFound(`Organisation ${opts.org}`)
          const created = await s.apiKeys.create({
            organisationId: opts.org.toLowerCase(),
            name: opts.name,
            expiresAt: opts.expires ?? null,
            grants: opts.tenancy ?? null,
            createdBy: { type: 'System', id: null, name: 'command line' },
          })
          print(
            !!opts.json,
            created,
            `API key ${created.key.name} (${created.key.id}); shown once, keep it safe:\n${created.apiKey}`,
          )
        }).catch(fail),
    )
  keys
    .command('list')
    .description('List the API keys of an organisation (never their secrets).')
    .requiredOption('--org <id>', 'organisation id')
    .option('--json', 'print one JSON document')
    .action((opts: { org: string; json?: boolean }) =>
      withServices(async (s) => {
        const list = await s.apiKeys.list(opts.org.toLowerCase())
        const lines = list.map(
          (k) =>
            `${k.id}  ${k.prefix}…  ${k.name}  ${k.scope === 'owner' ? 'owner' : k.scope.map((g) => `${g.tenancyId}:${g.role}`).join(',')}` +
            `${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}${k.expiresAt ? `  expires ${k.expiresAt}` : ''}`,
        )
        print(!!opts.json, { items: list }, lines.length ? lines.join('\n') : 'No API keys.')
      }).catch(fail),
    )
  keys
    .command('revoke')
    .description('Revoke an API key now: every request that starts after this gets 401.')
    .argument('<keyId>', 'the key id')
    .requiredOption('--org <id>', 'the organisation the key belongs to')
    .option('--json', 'print one JSON document')
    .action((keyId: string, opts: { org: string; json?: boolean }) =>
      withServices(async (s) => {
        await s.apiKeys.revoke(opts.org.toLowerCase(), keyId.toLowerCase())
        print(!!opts.json, { revoked: keyId.toLowerCase() }, `Revoked ${keyId}.`)
      }).catch(fail),
    )

  const users = cli.command('users').description('Users.')
  users
    .command('grant')
    .description('Give a member a role on a tenancy.')
    .requiredOption('--tenancy <id>', 'tenancy (tenant) id')
    .requiredOption('--user <id>', 'user id')
    .addOption(new Option('--role <role>', 'the role').choices(TENANCY_ROLES).makeOptionMandatory())
    .option('--json', 'print one JSON document')
    .action((opts: { tenancy: string; user: string; role: TenancyRole; json?: boolean }) =>
      withServices(async (s) => {
        const tenancyId = opts.tenancy.toLowerCase()
        const userId = opts.user.toLowerCase()
        const organisationId = await s.tenantStore.organisationOf(tenancyId)
        if (!organisationId) throw ApiError.notFound(`Tenancy ${opts.tenancy}`)
        if ((await s.users.organisationOf(userId)) !== organisationId) {
          throw ApiError.notFound(`User ${opts.user} in the tenancy's organisation`)
        }
        await s.users.grant(tenancyId, userId, opts.role)
        print(!!opts.json, { tenancyId, userId, role: opts.role }, `${opts.user} is ${opts.role} of ${opts.tenancy}.`)
      }).catch(fail),
    )
  registerEventCommands(cli)
  cli
    .command('import')
    .description('Load cost data from files.')
    .command('focus')
    .description('Load FOCUS 1.0/1.1 cost exports (CSV, optionally gzip) into a tenant, as one snapshot run.')
    .requiredOption('--tenant <id>', 'tenant id')
    .argument('<files...>', 'FOCUS files (.csv or .csv.gz)')
    .option('--skip-bad-rows', 'import the good rows and list the bad ones, instead of importing nothing')
    .option('--json', 'print one JSON document')
    .action((files: string[], opts: { tenant: string; skipBadRows?: boolean; json?: boolean }) =>
      withServices(async (s) => {
        try {
          const outcome = await s.importFocus(opts.tenant.toLowerCase(), files, { skipBadRows: opts.skipBadRows })
          const issues = [...outcome.errors, ...outcome.warnings].map((e) => `  ${e.file}:${e.line}: ${e.message}`)
          print(
            !!opts.json,
            outcome,
            [
              `Imported ${outcome.rowsRead - outcome.rowsRejected} of ${outcome.rowsRead} rows from ${files.length} file(s) ` +
                `into run ${outcome.run.id}: ${outcome.run.stats.costRows} daily cost rows from ${outcome.run.periodStart} to ` +
                `${outcome.run.periodEnd}, ${outcome.totalCost} ${outcome.currency}.`,
              ...(issues.length ? ['Skipped or noted:', ...issues] : []),
            ].join('\n'),
          )
        } catch (err) {
          if (!(err instanceof FocusImportRejected)) throw err
          const { errors, errorCount } = err.parsed
          if (opts.json) print(true, { imported: false, errorCount, errors }, '')
          const shown = errors.map((e) => `  ${e.file}:${e.line}: ${e.message}`)
          const more = errorCount > errors.length ? [`  ... and ${errorCount - errors.length} more`] : []
          process.stderr.write(`error: ${err.message}\n${[...shown, ...more].join('\n')}\n`)
          process.exitCode = 1
        }
      }).catch(fail),
    )

  return cli
}

program().parseAsync(process.argv).catch(fail)
