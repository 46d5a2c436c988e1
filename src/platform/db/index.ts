import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely'
import pg from 'pg'
import { sqliteFileOf } from '../../config.js'
import { migrations } from './migrations/index.js'
import type { Database } from './schema.js'

export type { Database } from './schema.js'
export type DialectName = 'sqlite' | 'postgres'
export type Tx = Transaction<Database>
export type Queryable = Kysely<Database>

export interface Db {
  kysely: Kysely<Database>
  dialect: DialectName
  close(): Promise<void>
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

/** Opens SQLite (a file path or `sqlite:` URL, WAL mode) or PostgreSQL (`postgres://`), by the URL's form. */
export function openDatabase(url: string, options: { poolSize?: number } = {}): Db {
  if (isPostgresUrl(url)) {
    // PostgreSQL returns bigint and numeric as strings; every count and amount here fits a JS number.
    const types = {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
    }
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types })
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] })
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() }
  }
  const file = resolve(sqliteFileOf(url))
  mkdirSync(dirname(file), { recursive: true })
  const sqlite = new SqliteDatabase(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL') // safe with WAL: a crash loses at most the last commits, never corrupts
  sqlite.pragma('busy_timeout = 5000') // other processes (a worker, the CLI) may hold the write lock briefly
  sqlite.pragma('foreign_keys = ON')
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  })
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() }
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
