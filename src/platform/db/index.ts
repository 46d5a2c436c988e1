import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import {
  CamelCasePlugin,
  type Compilable,
  Kysely,
  Migrator,
  PostgresDialect,
  type SqlBool,
  SqliteDialect,
  type SqliteDatabase as SqliteHandle,
  sql,
  type Transaction,
} from 'kysely'
import type Pg from 'pg'
import { type SqliteSynchronous, sqliteFileOf } from '../../config.js'
import { checkpointInBackground } from './checkpoints.js'
import { migrations } from './migrations/index.js'
import { registerRunningSum } from './running-sum.js'
import type { Database } from './schema.js'

export { keptWhole, orderedSubquery, runningSum } from './running-sum.js'
export type { Database } from './schema.js'
export type DialectName = 'sqlite' | 'postgres'
export type Tx = Transaction<Database>
export type Queryable = Kysely<Database>

/**
 * A condition no row meets, for `column in (list)` when the list is empty (a principal with no tenancy):
 * PostgreSQL refuses `in ()` as a syntax error, SQLite reads it as false.
 */
export const NO_ROW = sql<SqlBool>`1 = 0`

export interface Db {
  kysely: Kysely<Database>
  dialect: DialectName
  close(): Promise<void>
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

/** How long a SQLite writer waits for another process's write transaction before giving up. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000

/**
 * The page size of a new SQLite database: 16 KB rather than SQLite's 4 KB. Costwatch's large writes are bulk
 * appends of cost rows and series, and every page is written twice (into the WAL, then by the checkpoint):
 * bench/focus-import.ts (553,000 cost rows), three runs each, the final transaction's upsert took 2.3-2.5 s
 * instead of 2.7-3.5 s, its commit (with the checkpoint) 1.0 s instead of 1.5 s, and the import 15.1-16.2 s
 * instead of 17.3-21.0 s. 32 KB gained little more; 64 KB was slower (its upsert alone took 5.4 s). An existing
 * database keeps the page size it was created with (SQLite changes it only by a VACUUM outside WAL mode).
 */
export const SQLITE_PAGE_BYTES = 16 * 1024

/** Opens SQLite (a file path or `sqlite:` URL, WAL mode) or PostgreSQL (`postgres://`), by the URL's form. */
export function openDatabase(
  url: string,
  options: {
    poolSize?: number
    busyTimeoutMs?: number
    synchronous?: SqliteSynchronous
    /**
     * SQLite: checkpoint the WAL in a thread of its own rather than in this connection's commits (see
     * checkpointInBackground), for the processes that write much: the worker, `serve` with its worker, imports.
     */
    checkpointInBackground?: boolean
  } = {},
): Db {
  if (isPostgresUrl(url)) {
    // Required here, not imported at the top: a SQLite installation (and its command line) never loads pg, which
    // takes ~45 ms to load on 2 cores.
    const pg = createRequire(import.meta.url)('pg') as typeof Pg
    // PostgreSQL returns bigint and numeric as strings; every count and amount here fits a JS number.
    const types = {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
    }
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types })
    // An idle connection the server closes (a restart, a failover, an administrator) is an 'error' event on the
    // pool; unheard, it would end the process. The pool replaces the connection on the next checkout.
    pool.on('error', () => {})
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] })
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() }
  }
  const file = resolve(sqliteFileOf(url))
  mkdirSync(dirname(file), { recursive: true })
  const sqlite = new SqliteDatabase(file)
  // Before the first table exists (it changes nothing in a database that has one): see SQLITE_PAGE_BYTES.
  sqlite.pragma(`page_size = ${SQLITE_PAGE_BYTES}`)
  sqlite.pragma('journal_mode = WAL')
  // NORMAL is safe with WAL: a power cut may lose the last commits, never corrupts; FULL syncs every commit
  // (COSTWATCH_SQLITE_SYNCHRONOUS, see SQLITE_SYNCHRONOUS in config.ts).
  sqlite.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`)
  // Other processes (a worker, the command line) hold the write lock while they write; a writer waits this long
  // for it, then fails with SQLITE_BUSY (an API request answers 503 with Retry-After: see toProblem).
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? SQLITE_BUSY_TIMEOUT_MS}`)
  sqlite.pragma('foreign_keys = ON')
  // A sort larger than the page cache (a run's merge of a deep collection or an import: millions of rows) is
  // sorted in pieces, merged by two threads instead of one. The final transaction that does it holds the
  // database's write lock, so this shortens that wait for everyone; smaller sorts never start a thread.
  sqlite.pragma('threads = 2')
  registerRunningSum(sqlite)
  const stopCheckpoints = options.checkpointInBackground ? checkpointInBackground(sqlite, file) : null
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new CamelCasePlugin()],
  })
  sqliteOf.set(kysely, sqlite)
  const close = async () => {
    await stopCheckpoints?.()
    await kysely.destroy()
  }
  return { kysely, dialect: 'sqlite', close }
}

const STATEMENT_CACHE_ENTRIES = 500
/** Longer SQL (multi-row inserts of a bulk load) is prepared once per batch anyway; caching it would only hold memory. */
export const STATEMENT_CACHE_MAX_SQL = 8_192

/**
 * Kysely's SQLite driver calls `prepare(sql)` for every query, and better-sqlite3 compiles the SQL anew each
 * time: 5 to 30 µs a statement, ~50 µs of each authenticated list request (measured with the list bench). Here
 * the same SQL text gets the same compiled statement back, from a least-recently-used cache of 500.
 *
 * Kysely uses a statement in one of two ways (kysely/dist/esm/dialect/sqlite/sqlite-driver.js): `all()` or
 * `run()`, which finish before returning, or `iterate()` for `stream()`, which keeps the statement busy until the
 * iterator ends. A cached statement that is still busy (a stream left open) is not handed out again: that
 * caller gets a fresh, uncached statement. Parameters are bound on each call, so nothing leaks between calls.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteHandle {
  const cache = new Map<string, SqliteDatabase.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const cached = cache.get(text)
      if (cached && !cached.busy) {
        cache.delete(text) // re-inserted below: a Map keeps insertion order, so its first key is the least recent
        cache.set(text, cached)
        return cached
      }
      const statement = sqlite.prepare(text)
      if (cached || text.length > STATEMENT_CACHE_MAX_SQL) return statement
      cache.set(text, statement)
      if (cache.size > STATEMENT_CACHE_ENTRIES) cache.delete(cache.keys().next().value!)
      return statement
    },
  }
}

/** The better-sqlite3 connection behind each SQLite handle `openDatabase` made, for `prepared`'s direct runs. */
const sqliteOf = new WeakMap<Kysely<Database>, SqliteDatabase.Database>()

/** The CamelCasePlugin's own row mapping (snake_case columns to camelCase fields), for rows read without Kysely. */
class RowMapper extends CamelCasePlugin {
  map(row: Record<string, unknown>): Record<string, unknown> {
    return this.mapRow(row)
  }
}

/** Stands in for a parameter while a `prepared` query is compiled; replaced by the caller's value on each run. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A query built and compiled once, then run with new parameter values: for the few queries every request makes
 * (API key by hash, a page of a list, a counter). Building and compiling a small Kysely query, with the
 * CamelCasePlugin's pass over it, cost ~20 µs each on the list bench: more than running it on SQLite.
 *
 * `build` is called once with placeholders for `A`'s fields; use them where the query takes a value (`where`,
 * `limit`, `offset`...). Each run passes the values: the SQL text stays the same, so SQLite reuses its prepared
 * statement (see withStatementCache) and PostgreSQL gets the same text too. The plugins' result transformation
 * (snake_case to camelCase) still runs, in `executeQuery`. Values that change the SQL's shape (an IN list)
 * cannot be parameters here: build those queries per call as usual.
 */
export function prepared<A extends object, R>(
  db: Kysely<Database>,
  build: (args: A) => Compilable<R>,
): (args: A) => Promise<R[]> {
  const placeholders = new Proxy({} as A, { get: (_target, name) => new Slot(String(name)) })
  const compiled = build(placeholders).compile()
  const slots = compiled.parameters.map((p) => (p instanceof Slot ? p.name : null))
  if (!slots.some((name) => name !== null))
    throw new Error(`prepared: no placeholder reached the parameters of ${compiled.sql}`)
  const parametersOf = (args: A) =>
    compiled.parameters.map((fixed, i) => {
      const name = slots[i]
      return name === null || name === undefined ? fixed : (args as Record<string, unknown>)[name]
    })
  const viaKysely = async (args: A) => (await db.executeQuery<R>({ ...compiled, parameters: parametersOf(args) })).rows
  const sqlite = sqliteOf.get(db)
  if (!sqlite) return viaKysely
  // On SQLite, the statement runs straight on better-sqlite3: Kysely's connection queue, promises and result
  // plugins cost ~7 µs a run, more than the indexed lookup itself. Only outside a transaction: Kysely runs one
  // on this same connection across awaits, and a read in the middle of it would see its uncommitted writes, so
  // then the query queues behind it as usual. Prepared at the first run, when the tables exist.
  const mapper = new RowMapper()
  let statement: SqliteDatabase.Statement | undefined
  return async (args) => {
    if (sqlite.inTransaction) return viaKysely(args)
    statement ??= sqlite.prepare(compiled.sql)
    if (!statement.reader) return viaKysely(args) // a write keeps Kysely's path (and its `run`)
    const rows = statement.all(parametersOf(args)) as Record<string, unknown>[]
    return rows.map((row) => mapper.map(row)) as R[]
  }
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : error}`,
    )
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Whether the database answers; used by /readyz. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely)
    return true
  } catch {
    return false
  }
}
