import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'
import { type Config, loadConfig } from '../../src/config.js'
import type { TenancyGrant } from '../../src/features/apikeys/schemas.js'
import type { Feature } from '../../src/features/feature.js'
import type { CreateTenancyRequest, TenantRecord } from '../../src/features/tenants/schemas.js'
import { useHashParamsForTests } from '../../src/platform/auth/password.js'
import type { Principal } from '../../src/platform/auth/principal.js'
import { fixedClock } from '../../src/platform/clock.js'
import { type Db, type DialectName, migrateToLatest, openDatabase } from '../../src/platform/db/index.js'
import type { Worker } from '../../src/platform/runs/worker.js'
import { createRuntime, type Runtime } from '../../src/runtime.js'
import type { Services } from '../../src/services.js'

export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64')

/**
 * Suites sign in hundreds of times: the production parameters (N = 2^17, a few hundred ms a hash on a busy
 * machine) would make them minutes long. Cheaper ones here; password.test.ts checks the defaults, and the
 * command line's tests run them.
 */
export const TEST_HASH_PARAMS = { N: 2 ** 12, r: 8, p: 1 }
useHashParamsForTests(TEST_HASH_PARAMS)

/**
 * A fresh, empty database of the dialect opened for one suite, not migrated (a migration's test moves it to the
 * version it starts from): `use().db` inside its tests; closed and dropped after them.
 */
export function useEmptyDatabase(dialect: DialectName): { readonly db: Db } {
  let database: { url: string; drop(): Promise<void> } | undefined
  let db: Db | undefined
  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    db = openDatabase(database.url)
  })
  afterAll(async () => {
    await db?.close()
    await database?.drop()
  })
  return {
    get db() {
      if (!db) throw new Error('useEmptyDatabase: the database opens before the suite’s tests')
      return db
    },
  }
}

/**
 * A fresh database of the dialect: a temporary SQLite file, or a new PostgreSQL database. Empty, or with
 * `migrated` at the latest migration: a copy of the run's migrated template (test/support/templates.ts).
 */
export async function createTestDatabase(
  dialect: DialectName,
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const template = options.migrated ? inject('templates')?.[dialect] : null
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-test-'))
    const file = join(dir, 'costwatch.db')
    if (template) copyFileSync(template, file)
    return { url: file, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const adminUrl = inject('pgUrl')
  if (!adminUrl) throw new Error('PostgreSQL tests need COSTWATCH_TEST_PG_URL or the global setup')
  const name = `cw_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

export interface OrgContext {
  organisationId: string
  ownerKey: string
  ownerId: string
  owner: Principal
}

export interface TestApp {
  app: FastifyInstance
  db: Db
  config: Config
  services: Services
  clock: ReturnType<typeof fixedClock>
  logs: string[]
  databaseUrl: string
  request(
    method: InjectOptions['method'],
    url: string,
    key?: string | null,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>
  /** A worker of this app's services and clock; call `runOnce()` to claim and do one run. */
  worker(options?: Parameters<Runtime['worker']>[0]): Worker
  given: {
    organisation(name?: string): Promise<OrgContext>
    tenant(org: OrgContext, input?: Partial<CreateTenancyRequest>): Promise<TenantRecord>
    key(
      org: OrgContext,
      grants: TenancyGrant[] | null,
      options?: { expiresAt?: string; name?: string },
    ): Promise<{ id: string; apiKey: string }>
  }
}

let cloudTenantCounter = 0

/** Builds the real app on a fresh database of the dialect, with a fixed clock; closes and drops it after the file. */
export function useTestApp(options: {
  dialect: DialectName
  now?: string
  env?: Record<string, string>
  /** What the app serves, when a test adds a feature of its own. */
  features?: readonly Feature<Services>[]
  /** Where the built web interface is, for the browser tests. */
  webDir?: string
  /** How long the app's SQLite writes wait for another process's lock (see openDatabase). */
  sqliteBusyTimeoutMs?: number
}): TestApp {
  const t = { logs: [] as string[] } as TestApp
  let drop: () => Promise<void> = async () => {}
  beforeAll(async () => {
    const database = await createTestDatabase(options.dialect, { migrated: true })
    drop = database.drop
    t.databaseUrl = database.url
    t.clock = fixedClock(options.now ?? '2026-03-01T09:00:00.000Z')
    t.config = loadConfig({
      COSTWATCH_DATABASE_URL: database.url,
      COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
      COSTWATCH_CONNECTOR: 'simulated',
      COSTWATCH_LOG_LEVEL: 'info',
      // Suites send many bad keys from one address on purpose; the limit has tests of its own.
      COSTWATCH_AUTH_FAILURE_LIMIT: '100000',
      COSTWATCH_ANONYMOUS_LIMIT: '100000',
      ...options.env,
    })
    t.db = openDatabase(database.url, { busyTimeoutMs: options.sqliteBusyTimeoutMs })
    await migrateToLatest(t.db) // nothing left to do on a copy of the template
    const logStream = new Writable({
      write(chunk, _enc, done) {
        t.logs.push(String(chunk))
        done()
      },
    })
    // Wired exactly as `costwatch serve` wires it: t.services are the app's own.
    const runtime = await createRuntime({
      db: t.db,
      config: t.config,
      clock: t.clock,
      logStream,
      features: options.features,
      webDir: options.webDir,
    })
    t.app = runtime.app
    t.services = runtime.services
    t.worker = runtime.worker
    await t.app.ready()
  })
  afterAll(async () => {
    // A test that listened (a browser's keep-alive sockets) must not hold the close up: they are the test's own.
    t.app?.server.closeAllConnections()
    await t.app?.close()
    await t.db?.close()
    await drop()
  })

  t.request = (method, url, key, body, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
      ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
    })

  t.given = {
    async organisation(name = 'Acme') {
      const created = await t.services.organisations.create({ name, ownerEmail: `owner-${Math.random()}@acme.test` })
      return {
        organisationId: created.organisation.id,
        ownerKey: created.apiKey,
        ownerId: created.owner.id,
        owner: {
          organisationId: created.organisation.id,
          actor: { type: 'User', id: created.owner.id, name: created.owner.email },
          isOwner: true,
          tenancyRoles: new Map(),
        },
      }
    },
    async tenant(org, input = {}) {
      cloudTenantCounter++
      return t.services.tenants.create(org.owner, {
        name: `Tenant ${cloudTenantCounter}`,
        cloudTenantId: `t${cloudTenantCounter}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.onmicrosoft.com`,
        credentialType: 'ManagedIdentity',
        ...input,
      })
    },
    async key(org, grants, opts = {}) {
      const { key, apiKey } = await t.services.apiKeys.create({
        organisationId: org.organisationId,
        name: opts.name ?? 'test key',
        expiresAt: opts.expiresAt ?? null,
        grants,
        createdBy: { type: 'System', id: null, name: 'test' },
      })
      return { id: key.id, apiKey }
    },
  }
  return t
}
